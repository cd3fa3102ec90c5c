import type { PageLayer } from '../../domain/ocr/page-texts';
import { type BlankPageDetector, OcrFailure, type TextLayerReader } from '../../domain/ocr/ports';
import { sniffFormat } from './formats';
import { FileFault, PoolBusy } from './imaging-faults';
import { ImagingPool, type ImagingPoolOptions } from './worker-pool';

/** Bounds of {@link PdfTextLayerReader}; every field has a default. */
export interface PdfTextLayerReaderOptions {
  /** The workers to read on, shared with other imaging work; by default a pool of its own (`poolOptions`). */
  readonly pool?: ImagingPool;
  /** Options of the reader's own pool when none is given. */
  readonly poolOptions?: ImagingPoolOptions;
  /** Larger files are not read (null): the caller OCRs them, under that engine's own bounds. @default 100 MiB */
  readonly maxInputBytes?: number;
  /** Documents with more pages are not read (null). @default 2000 */
  readonly maxPages?: number;
  /** A page that draws more glyphs than this is refused (OcrFailure `too_large`). @default 200000 */
  readonly maxCharsPerPage?: number;
  /** A page whose content streams inflate to more than this is refused (OcrFailure `too_large`). @default 32 MiB */
  readonly maxContentBytes?: number;
  /** A read still running after this is stopped (OcrFailure `timeout`). @default 60000 */
  readonly timeoutMs?: number;
  /** A read that could not start within this (every worker busy) is a transient error: the job is retried. @default 60000 */
  readonly maxWaitMs?: number;
  /** The resolution pages are drawn at to tell blank paper (`blankPages`). @default 72 */
  readonly blankCheckDpi?: number;
  /** More pages than this to check are not drawn (`blankPages` answers each not blank). @default 20 */
  readonly maxBlankCheckPages?: number;
  /**
   * A page whose images hold more pixels than this, all together, is not drawn for the blank check (it is read):
   * its decoding alone would take seconds. @default 40e6 (a Letter page scanned at 600 dpi is 34 megapixels)
   */
  readonly maxBlankCheckPixels?: number;
}

const MiB = 1024 * 1024;

const DEFAULTS = {
  maxInputBytes: 100 * MiB,
  maxPages: 2000,
  maxCharsPerPage: 200_000,
  maxContentBytes: 32 * MiB,
  timeoutMs: 60_000,
  maxWaitMs: 60_000,
  blankCheckDpi: 72,
  maxBlankCheckPages: 20,
  maxBlankCheckPixels: 40_000_000,
} as const satisfies Omit<Required<PdfTextLayerReaderOptions>, 'pool' | 'poolOptions'>;

/**
 * The OCR lane of the pool: text-layer reads and searchable-PDF writes run in it one at a time, so OCR never holds
 * more than one imaging worker (thumbnails keep the rest).
 */
export const TEXT_LAYER_LANE = 'text-layer';

/**
 * {@link TextLayerReader} on pdf.js (`pdfjs-dist`, Apache-2.0), run in an {@link ImagingPool}'s
 * worker process: the process answering requests never parses the file, and the read is bounded in time (`timeoutMs`), memory
 * (the pool's caps) and inflated size (`maxContentBytes` per page, `maxCharsPerPage`).
 *
 * Returns null, so that the document goes to OCR whole, when: the bytes are not a PDF, pdf.js cannot open it, it
 * needs a password, it has no pages or more than `maxPages`, or it is larger than `maxInputBytes`. Otherwise what
 * each page holds (text-layer.ts): its text (trimmed), whether it draws images, whether it paints anything else;
 * the worker decides from that which pages keep their layer, which are blank and which are OCRed.
 *
 * Throws {@link OcrFailure} when the file exceeds a bound (`too_large`: a page's inflated content or glyphs, the
 * memory cap; `timeout`; `unreadable_file`: it broke the worker): such a PDF is hostile and would only exhaust
 * the OCR engine next, so its job ends failed with the reason. Every worker being busy for `maxWaitMs` is a plain
 * Error, i.e. transient: the job is retried.
 */
export class PdfTextLayerReader implements TextLayerReader, BlankPageDetector {
  private readonly options: Omit<Required<PdfTextLayerReaderOptions>, 'pool' | 'poolOptions'>;
  private readonly pool: ImagingPool;
  private readonly ownsPool: boolean;

  constructor(options: PdfTextLayerReaderOptions = {}) {
    const { pool, poolOptions, ...limits } = options;
    const given = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
    this.options = { ...DEFAULTS, ...given };
    this.pool = pool ?? new ImagingPool(poolOptions);
    this.ownsPool = !pool;
  }

  get maxInputBytes(): number {
    return this.options.maxInputBytes;
  }

  async read(bytes: Uint8Array): Promise<{ pages: PageLayer[] } | null> {
    if (bytes.length === 0 || bytes.length > this.options.maxInputBytes || sniffFormat(bytes) !== 'pdf') return null;
    const { maxPages, maxCharsPerPage, maxContentBytes, timeoutMs, maxWaitMs } = this.options;
    try {
      return await this.pool.run(
        'text-layer',
        { bytes, maxPages, maxCharsPerPage, maxContentBytes },
        { timeoutMs, maxWaitMs, lane: TEXT_LAYER_LANE },
      );
    } catch (error) {
      if (error instanceof FileFault) throw failureOf(error);
      if (error instanceof PoolBusy) throw new Error(`The PDF text layer could not be read: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /**
   * Pages `pages` (1-based) of a PDF each as a PDF of its own, from one parse of the file, for an engine that reads
   * only the pages needing OCR (Textract's synchronous API takes one-page PDFs). Same lane and bounds as a read; a
   * fault is an OcrFailure.
   */
  async pagePdfs(bytes: Uint8Array, pages: readonly number[]): Promise<Uint8Array[]> {
    const { timeoutMs, maxWaitMs } = this.options;
    try {
      const copies = await this.pool.run('page-pdf', { bytes, pages }, { timeoutMs, maxWaitMs, lane: TEXT_LAYER_LANE });
      // The IPC channel hands each copy over as a Buffer.
      return copies.map((copy) => new Uint8Array(copy.buffer, copy.byteOffset, copy.byteLength));
    } catch (error) {
      if (error instanceof FileFault) throw failureOf(error);
      if (error instanceof PoolBusy) throw new Error(`The PDF's pages could not be copied: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /**
   * Whether each of `pages` (1-based) of a PDF is blank paper (`blankPixels`), drawn at `blankCheckDpi`: a scan is
   * drawn from its images reduced as they are read. Same lane and bounds as a read. More pages than
   * `maxBlankCheckPages` are not drawn, and a file or page a bound keeps from being drawn is not blank: all are
   * answered false, and OCR reads them. Every worker busy for `maxWaitMs` is thrown, as for a read.
   */
  async blankPages(bytes: Uint8Array, pages: readonly number[]): Promise<boolean[]> {
    const { timeoutMs, maxWaitMs, blankCheckDpi, maxBlankCheckPages, maxBlankCheckPixels, maxContentBytes } = this.options;
    const none = pages.map(() => false);
    if (pages.length === 0 || pages.length > maxBlankCheckPages || bytes.length > this.options.maxInputBytes) return none;
    try {
      const job = { bytes, pages, dpi: blankCheckDpi, maxPixels: maxBlankCheckPixels, maxContentBytes };
      return await this.pool.run('blank-pages', job, { timeoutMs, maxWaitMs, lane: TEXT_LAYER_LANE });
    } catch (error) {
      if (error instanceof FileFault) return none;
      if (error instanceof PoolBusy) throw new Error(`The PDF's pages could not be checked for blanks: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /**
   * Whether each page of an image file (one for PNG, JPEG, WebP; each of a TIFF) is blank paper (`blankPixels`),
   * drawn at `blankCheckDpi` as the page of its stated resolution. Same lane and bounds as {@link blankPages}: a
   * page above `maxBlankCheckPixels` or a file of more than `maxBlankCheckPages` pages is not decoded; a file not
   * checked (a bound, a format or file it cannot decode) is answered empty, and OCR reads it.
   */
  async blankImagePages(bytes: Uint8Array): Promise<boolean[]> {
    const { timeoutMs, maxWaitMs, blankCheckDpi, maxBlankCheckPages, maxBlankCheckPixels, maxInputBytes } = this.options;
    const format = bytes.length > 0 && bytes.length <= maxInputBytes ? sniffFormat(bytes) : undefined;
    if (!format || format === 'pdf') return [];
    try {
      const job = { bytes, format, dpi: blankCheckDpi, maxPixels: maxBlankCheckPixels, maxPages: maxBlankCheckPages };
      return await this.pool.run('blank-image', job, { timeoutMs, maxWaitMs, lane: TEXT_LAYER_LANE });
    } catch (error) {
      if (error instanceof FileFault) return [];
      if (error instanceof PoolBusy) throw new Error(`The image's pages could not be checked for blanks: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /** Stops the reader's own pool; a later read starts new workers. A shared pool is left to its owner. */
  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.close();
  }
}

const failureOf = (fault: FileFault): OcrFailure => {
  const message = `The PDF cannot be read within limits: ${fault.reason}`;
  if (fault.kind === 'timeout') return new OcrFailure('timeout', message);
  if (fault.kind === 'crashed') return new OcrFailure('unreadable_file', message);
  return new OcrFailure('too_large', message);
};
