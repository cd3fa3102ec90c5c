import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.min.mjs';
import { checkPageContent, loadObjects, pageHasInlineImage, type PdfObjects, type SizeCache } from './content-budget';
import { FileRefusal, type TextLayerJob, type TextLayerOutput, type TextLayerPage } from './jobs';
import { openPdf, type PdfDocument, type PdfPage } from './pdf-engine';
import { isAllocationFailure } from './wasm-memory-cap';
import { characterCounts, MIN_LAYER_CHARS } from '../../domain/ocr/page-texts';

/** The text layer never draws images; pdf.js is told so (images above 1 pixel are not decoded). */
const NO_IMAGES = 1;

/** The part of a pdf.js text item read here: its string, where it starts (transform[4], [5]) and how wide and high it is. */
interface TextItem {
  str: string;
  hasEOL: boolean;
  transform: number[];
  width: number;
  height: number;
}

/**
 * The text of one page, read from pdf.js's text-content stream, in content order. Between two items a line break
 * goes where pdf.js ends a line or the next item starts on another baseline, and a space where it starts further
 * right than the previous one ended (OCR layers, Tesseract's among them, place each word and draw no spaces).
 * Every glyph counts, visible or not (an OCR layer is invisible text), and the read stops past `max`: the stream
 * comes in small chunks, so a page of millions of glyphs is refused before it fills the memory.
 */
const pageText = async (page: PdfPage, pageNumber: number, max: number): Promise<string> => {
  const reader = page.streamTextContent({ includeMarkedContent: false }).getReader();
  const parts: string[] = [];
  let glyphs = 0;
  let previous: { endX: number; y: number; height: number; eol: boolean } | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const item of value.items as unknown as TextItem[]) {
      if (typeof item.str !== 'string') continue;
      glyphs += item.str.length;
      if (glyphs > max) {
        // Not awaited: with pdf.js's parser in this thread, the cancel settles only once the parser yields.
        reader.cancel().catch(() => undefined);
        throw new FileRefusal(`page ${pageNumber} draws more than ${max} characters`);
      }
      const [x = 0, y = 0] = item.transform.slice(4);
      const height = Math.abs(item.height) || 1;
      if (previous && !previous.eol && item.str !== '') {
        if (Math.abs(y - previous.y) > Math.max(height, previous.height) / 2) parts.push('\n');
        else if (x - previous.endX > height * 0.15 && !/\s$/.test(parts.at(-1) ?? '') && !/^\s/.test(item.str)) parts.push(' ');
      }
      parts.push(item.str);
      if (item.hasEOL) parts.push('\n');
      if (item.str !== '' || item.hasEOL) previous = { endX: x + item.width, y, height, eol: item.hasEOL };
    }
  }
  return parts
    .join('')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
};

/**
 * pdf.js operators that put something on the page besides images (which the text layer's document, opened
 * without images, never lists: their presence is read from the page's resources instead): text shown, paths
 * filled or stroked, shadings, solid masks. A path pdf.js folds into `constructPath` paints when its first
 * argument is a painting operator, not `endPath` (a clip).
 */
const { OPS } = pdfjs;
const PAINTS = new Set<number>([
  OPS.showText,
  OPS.showSpacedText,
  OPS.nextLineShowText,
  OPS.nextLineSetSpacingShowText,
  OPS.stroke,
  OPS.closeStroke,
  OPS.fill,
  OPS.eoFill,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
  OPS.shadingFill,
  OPS.paintSolidColorImageMask,
  OPS.rawFillPath,
]);

/** Whether a page's operators paint anything (see {@link PAINTS}); asked only of pages without text. */
const paintsAnything = async (page: PdfPage): Promise<boolean> => {
  const { fnArray, argsArray } = await page.getOperatorList({ intent: 'display' });
  return fnArray.some((fn, i) => {
    if (PAINTS.has(fn)) return true;
    if (fn !== OPS.constructPath) return false;
    const op = (argsArray[i] as unknown[] | null)?.[0];
    return typeof op === 'number' && op !== OPS.endPath;
  });
};

const extract = async (job: TextLayerJob, document: PdfDocument, objects: PdfObjects): Promise<TextLayerOutput> => {
  const pages = document.numPages;
  if (pages < 1 || pages > job.maxPages) return null;
  const sizes: SizeCache = new Map();
  const read: TextLayerPage[] = [];
  for (let index = 0; index < pages; index++) {
    const page = await document.getPage(index + 1);
    const images = checkPageContent(objects, page.ref, index + 1, job.maxContentBytes, sizes);
    const text = await pageText(page, index + 1, job.maxCharsPerPage);
    // A page of text (enough letters and digits) is kept whatever else it draws: its content is not read again.
    const settled = characterCounts(text).word >= MIN_LAYER_CHARS;
    const drawsImages = images.length > 0 || (!settled && pageHasInlineImage(objects, page.ref));
    // A page that shows text draws something; only a page without any is asked what else it paints.
    const drawsOther = text !== '' || (!drawsImages && (await paintsAnything(page)));
    // Each page's parsed content goes as soon as it is read, so a long document holds one page at a time.
    page.cleanup();
    read.push({ text, drawsImages, drawsOther });
  }
  return { pages: read };
};

/**
 * What every page of a PDF holds: its text (trimmed), whether it draws images (image XObjects in its resources,
 * its forms' included, or an inline image in its content) and whether it paints anything else. Null when pdf.js
 * or pdf-lib cannot open it, it needs a password, or it has no pages or more than `maxPages`. Throws {@link FileRefusal}
 * when the file exceeds a bound (a page's inflated content, its glyph count, the memory cap): such a file is
 * hostile, not merely without text. Runs in the imaging worker.
 */
export const readTextLayer = async (job: TextLayerJob): Promise<TextLayerOutput> => {
  let document: PdfDocument | undefined;
  try {
    document = await openPdf(job.bytes, NO_IMAGES);
    const objects = await loadObjects(job.bytes);
    return await extract(job, document, objects);
  } catch (error) {
    if (error instanceof FileRefusal && !/cannot be checked/.test(error.message)) throw error;
    if (isAllocationFailure(error)) throw new FileRefusal('reading its text needs more memory than allowed');
    // A PDF that cannot be parsed (or checked), or needs a password, has no usable text layer; OCR reports it.
    return null;
  } finally {
    // Not awaited either, for the same reason: the pool replaces a worker whose job was stopped.
    document?.destroy().catch(() => undefined);
  }
};
