import * as mupdf from 'mupdf';
import { checkPageContent, type SizeCache } from './content-budget';
import { FileRefusal, type TextLayerJob, type TextLayerOutput } from './jobs';
import { isAllocationFailure } from './wasm-memory-cap';

/** Between the text of two pages, as the OCR engines join theirs: a form feed on a line of its own. */
const PAGE_SEPARATOR = '\n\f\n';

/** Frees MuPDF objects now rather than at garbage collection: the WebAssembly heap never shrinks. */
type Owned = { destroy(): void }[];
const own = <T extends { destroy(): void }>(owned: Owned, value: T): T => {
  owned.push(value);
  return value;
};

class TooManyGlyphs extends Error {}

/**
 * Counts the glyphs a page draws, visible or not (an OCR layer is invisible text), and stops at `max`: the
 * structured-text device keeps every glyph it is given, so a page of millions of them would fill the memory
 * before it could be refused.
 */
const checkGlyphs = (page: mupdf.Page, pageNumber: number, max: number): void => {
  let glyphs = 0;
  const count = (text: mupdf.Text): void => {
    text.walk({ showGlyph: () => void glyphs++ });
    if (glyphs > max) throw new TooManyGlyphs();
  };
  const device = new mupdf.Device({ fillText: count, strokeText: count, clipText: count, clipStrokeText: count, ignoreText: count });
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } catch (error) {
    if (error instanceof TooManyGlyphs || (error instanceof Error && /TooManyGlyphs/.test(error.message))) {
      throw new FileRefusal(`page ${pageNumber} draws more than ${max} characters`);
    }
    throw error;
  } finally {
    device.destroy();
  }
};

const extract = (job: TextLayerJob, owned: Owned): TextLayerOutput => {
  const document = own(owned, mupdf.Document.openDocument(job.bytes, 'application/pdf'));
  if (document.needsPassword()) return null;
  const pages = document.countPages();
  if (pages < 1 || pages > job.maxPages) return null;
  const sizes: SizeCache = new Map();
  const texts: string[] = [];
  for (let index = 0; index < pages; index++) {
    const page = own(owned, document.loadPage(index));
    if (page instanceof mupdf.PDFPage) checkPageContent(page, index + 1, job.maxContentBytes, sizes);
    checkGlyphs(page, index + 1, job.maxCharsPerPage);
    const text = own(owned, page.toStructuredText('')).asText().trim();
    if (text.replace(/\s/g, '').length < job.minCharsPerPage) return null;
    texts.push(text);
    // Each page's objects go as soon as it is read, so a long document holds one page at a time.
    for (const object of owned.splice(1).reverse()) object.destroy();
  }
  return { text: texts.join(PAGE_SEPARATOR), pages };
};

/**
 * The text of every page of a PDF (trimmed, joined with `"\n\f\n"` like the OCR engines), or null when it has
 * no usable text layer: MuPDF cannot open it, it needs a password, it has no pages or more than `maxPages`, or a
 * page has fewer than `minCharsPerPage` non-whitespace characters. Throws {@link FileRefusal} when the file
 * exceeds a bound (a page's inflated content, its glyph count, the memory cap): such a file is hostile, not
 * merely without text. Runs in the imaging worker.
 */
export const readTextLayer = (job: TextLayerJob): TextLayerOutput => {
  const owned: Owned = [];
  try {
    return extract(job, owned);
  } catch (error) {
    if (error instanceof FileRefusal) throw error;
    if (isAllocationFailure(error)) throw new FileRefusal('reading its text needs more memory than allowed');
    // A PDF MuPDF cannot parse has no usable text layer; OCR will report it properly.
    return null;
  } finally {
    release(owned);
  }
};

/** After an exception thrown through MuPDF its state may be inconsistent: freeing is best effort (the pool replaces the worker after a failure). */
const release = (owned: Owned): void => {
  try {
    for (const object of owned.reverse()) object.destroy();
    mupdf.emptyStore();
  } catch {
    // The worker is replaced after a failed job.
  }
};
