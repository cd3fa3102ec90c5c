import type * as MupdfModule from 'mupdf';
import type { TextLayerReader } from '../../domain/ocr/ports';
import { sniffFormat } from './formats';

/** Bounds of {@link MupdfTextLayerReader}; every field has a default. */
export interface MupdfTextLayerReaderOptions {
  /** Larger files are not read (null): the caller OCRs them, under that engine's own bounds. @default 100 MiB */
  readonly maxInputBytes?: number;
  /** Documents with more pages are not read (null). @default 2000 */
  readonly maxPages?: number;
  /** A page with fewer non-whitespace characters than this has no usable text (a scan, a stray page number). @default 20 */
  readonly minCharsPerPage?: number;
}

const MiB = 1024 * 1024;

const DEFAULTS: Required<MupdfTextLayerReaderOptions> = {
  maxInputBytes: 100 * MiB,
  maxPages: 2000,
  minCharsPerPage: 20,
};

/** Between the text of two pages, as the OCR engines join theirs: a form feed on a line of its own. */
const PAGE_SEPARATOR = '\n\f\n';

type Mupdf = typeof MupdfModule;

let loaded: Promise<Mupdf> | undefined;

/**
 * MuPDF is loaded on first use, not at import: its WebAssembly module is megabytes that a Lambda reading no PDF
 * should not pay for at cold start. Its warnings about repaired files go nowhere: a PDF it cannot read is null.
 */
const loadMupdf = (): Promise<Mupdf> => {
  loaded ??= import('mupdf').then((mupdf) => {
    mupdf.setLog({ error: () => undefined, warning: () => undefined });
    return mupdf;
  });
  return loaded;
};

/** Frees MuPDF objects now rather than at garbage collection: the WebAssembly heap never shrinks. */
type Owned = { destroy(): void }[];
const own = <T extends { destroy(): void }>(owned: Owned, value: T): T => {
  owned.push(value);
  return value;
};

/**
 * {@link TextLayerReader} on MuPDF compiled to WebAssembly (the `mupdf` package): no native binary, so it runs
 * the same in Lambda and locally.
 *
 * It runs in the calling thread. That is safe because extracting text decodes no image (the structured-text
 * device only records glyphs): a 35000x35000 JBIG2 page (`hugemono.pdf`) or a 9000x9000 one (`enormous.pdf`)
 * is read in milliseconds, and the work is bounded by the input size and page count.
 *
 * Returns null, so that the document goes to OCR, when: the bytes are not a PDF, MuPDF cannot open it, it needs
 * a password, it has no pages or more than `maxPages`, it is larger than `maxInputBytes`, or any page has fewer
 * than `minCharsPerPage` non-whitespace characters. Otherwise the text of every page (trimmed, joined with
 * `"\n\f\n"` like the OCR engines) and the page count.
 */
export class MupdfTextLayerReader implements TextLayerReader {
  private readonly options: Required<MupdfTextLayerReaderOptions>;

  constructor(options: MupdfTextLayerReaderOptions = {}) {
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    this.options = { ...DEFAULTS, ...given };
  }

  async read(bytes: Uint8Array): Promise<{ text: string; pages: number } | null> {
    if (bytes.length === 0 || bytes.length > this.options.maxInputBytes || sniffFormat(bytes) !== 'pdf') return null;
    const mupdf = await loadMupdf();
    const owned: Owned = [];
    try {
      return this.extract(mupdf, bytes, owned);
    } catch {
      // A PDF MuPDF cannot parse has no usable text layer; OCR will report it properly.
      return null;
    } finally {
      for (const object of owned.reverse()) object.destroy();
      mupdf.emptyStore();
    }
  }

  private extract(mupdf: Mupdf, bytes: Uint8Array, owned: Owned): { text: string; pages: number } | null {
    const document = own(owned, mupdf.Document.openDocument(bytes, 'application/pdf'));
    if (document.needsPassword()) return null;
    const pages = document.countPages();
    if (pages < 1 || pages > this.options.maxPages) return null;
    const texts: string[] = [];
    for (let index = 0; index < pages; index++) {
      const page = own(owned, document.loadPage(index));
      const structured = own(owned, page.toStructuredText(''));
      const text = structured.asText().trim();
      if (text.replace(/\s/g, '').length < this.options.minCharsPerPage) return null;
      texts.push(text);
      // Each page's objects go as soon as it is read, so a long document holds one page at a time.
      for (const object of owned.splice(1).reverse()) object.destroy();
    }
    return { text: texts.join(PAGE_SEPARATOR), pages };
  }
}
