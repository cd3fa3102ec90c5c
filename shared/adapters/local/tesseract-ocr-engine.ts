import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { PAGE_SEPARATOR } from '../../domain/ocr/page-texts';
import { OcrFailure, type OcrEngine, type OcrInput, type OcrOutput } from '../../domain/ocr/ports';
import { looksComplete, sniffFormat, type ImageFormat } from '../imaging/formats';
import { blankPgm } from './blank-raster';
import { PagePool } from './tesseract-page-pool';
import { PagePlanner, writeInput, type PagePlan } from './tesseract-page-plans';
import { readPage, type PageText } from './tesseract-page-reader';
import { MARKER_FILE, MARKER_PAGE } from './tesseract-stream';
import { TesseractStreams } from './tesseract-streams';
import { runProcess, type ProcessLimits } from './tesseract-processes';

/** Limits and tools of {@link TesseractOcrEngine}; every field has a default. */
export interface TesseractOcrEngineOptions {
  /** Most tesseract/pdftoppm processes running at once, over all documents of this engine. @default os.availableParallelism() */
  readonly concurrency?: number;
  /** Resolution PDF pages are rasterised at. @default 300 */
  readonly dpi?: number;
  /** A PDF page whose raster at `dpi` exceeds `maxPagePixels` is rasterised at a lower resolution, down to this; below it the page is refused. @default 150 */
  readonly minDpi?: number;
  /** Most pixels of one page raster (PDF page at its resolution, or image file). @default 100e6 */
  readonly maxPagePixels?: number;
  /** Documents with more pages are refused before anything is rasterised. @default 500 */
  readonly maxPages?: number;
  /** Larger files are refused unread. @default 256 MiB */
  readonly maxInputBytes?: number;
  /** Every child process (pdfinfo, pdftoppm, tesseract) is killed with SIGKILL after this long: an OcrFailure `timeout`. @default 180000 */
  readonly processTimeoutMs?: number;
  /** A tesseract process left without a page to read for this long exits, giving back the memory its language data holds. @default 30000 */
  readonly idleProcessMs?: number;
  /** Address-space cap of every child process (`ulimit -v`), in bytes; 0 for none. @default 2 GiB */
  readonly memoryLimitBytes?: number;
  /** Where each document gets its own temporary directory, removed when it is read. @default os.tmpdir() */
  readonly tempDir?: string;
  /** Commands to run, for machines where they are not on PATH. */
  readonly commands?: { readonly tesseract?: string; readonly pdftoppm?: string; readonly pdfinfo?: string };
}

const MiB = 1024 * 1024;

const DEFAULTS = {
  concurrency: os.availableParallelism(),
  dpi: 300,
  minDpi: 150,
  maxPagePixels: 100_000_000,
  maxPages: 500,
  maxInputBytes: 256 * MiB,
  processTimeoutMs: 180_000,
  idleProcessMs: 30_000,
  memoryLimitBytes: 2048 * MiB,
  tempDir: os.tmpdir(),
} as const;

/** Between the text of two pages: a form feed (as pdftotext and tesseract mark pages) on a line of its own. */
export { PAGE_SEPARATOR } from '../../domain/ocr/page-texts';

/**
 * The largest page raster checked for blankness (blank-raster.ts): 32 MiB, an A2 page at 300 dpi in grey; the
 * check reads the raster into memory, one per busy slot.
 */
const BLANK_CHECK_MAX_BYTES = 32 * MiB;

/** Language data that is not a language: orientation and script detection. */
const OSD = 'osd';

const MIME_TYPES: Record<string, ImageFormat> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/tiff': 'tiff',
  'image/webp': 'webp',
};

const LANGUAGE_CODE = /^[A-Za-z0-9_]+$/;

/** Options given as `undefined` take the default rather than erasing it. */
const definedOnly = <T extends object>(options: T): Partial<T> =>
  Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;

/**
 * {@link OcrEngine} on the Tesseract 5 command line (Debian `tesseract-ocr`) and poppler (`pdftoppm`, `pdfinfo`).
 *
 * - Formats are recognised by their bytes: PDF pages are rasterised with pdftoppm (grayscale, `dpi`) one page at
 *   a time into a temporary directory; PNG, JPEG, TIFF and WebP go to tesseract as they are, a multi-page TIFF
 *   split into one file per page. The directory is removed when the document is done, whatever the outcome.
 * - Pages are read by single-thread tesseract processes (`OMP_THREAD_LIMIT=1`) that stay up between pages
 *   (tesseract-streams.ts: starting one, mostly loading its language data, costs a large share of a small
 *   page's OCR); a pool of `concurrency` slots (one per core by default), shared by all documents of this
 *   engine, runs them, so the pages of one document are read in parallel across cores without OpenMP threads
 *   fighting over them. Rasterising a page takes a slot too.
 *   Workspaces take turns for the slots, then the documents within one (tesseract-page-pool.ts): a short
 *   document is not held behind every page of a long one, nor one workspace behind another's backlog.
 * - Orientation: detected only where it pays (tesseract-page-reader.ts). A page is read with the default page
 *   segmentation; when that reading has little confidence it is read again with `--psm 1` (orientation and
 *   script detection, when `osd` data is installed) and the better reading is kept, so pages turned by 90, 180
 *   or 270 degrees are read upright. PDF pages carrying a `/Rotate` are drawn upright by pdftoppm already.
 * - Output: each tesseract run writes both the page's text (`txt`) and its words with confidences (`tsv`).
 *   Pages are joined with {@link PAGE_SEPARATOR} (`"\n\f\n"`: a form feed on a line of its own, so page breaks
 *   survive while every search tokeniser sees whitespace); the confidence is the mean of all word confidences
 *   of the document (words with conf >= 0 and text) as a fraction, 0 when no word was read.
 * - Only some pages (`OcrInput.pages`, PDFs): those pages alone are drawn and read, and `pageTexts` answers each.
 * - Blank pages: a drawn PDF page whose pixels are all but uniform (blank-raster.ts: a scanned blank page) is not
 *   read; its `pageTexts` entry says `blank` and it is not counted in `stats.pages`.
 * - Progress: `onProgress` is awaited after each page, `done` counting 1..total in completion order.
 * - Bounds, checked before decoding anything: input size, page count (`pdfinfo` / TIFF directories), pixels per
 *   page (PDF pages above `maxPagePixels` at `dpi` are rasterised at a lower resolution down to `minDpi`, then
 *   refused). Every child process has a timeout (SIGKILL) and an address-space cap; the first failing page stops
 *   the others of its document (their processes are killed) before the temporary directory is removed.
 *
 * Failures caused by the file are {@link OcrFailure}s: `unreadable_file` (corrupt, truncated, not what it claims),
 * `encrypted` (needs a password), `too_large`, `no_pages`, `unsupported_type`, `unsupported_language`, `timeout`.
 * A missing command or language data is a plain Error: the machine is broken, the job should be retried later.
 */
export class TesseractOcrEngine implements OcrEngine {
  readonly name = 'tesseract';
  private readonly options: Required<Omit<TesseractOcrEngineOptions, 'commands'>>;
  private readonly commands: { tesseract: string; pdftoppm: string; pdfinfo: string };
  private readonly pool: PagePool;
  private readonly streams: TesseractStreams;
  private readonly planner: PagePlanner;
  private installed: Promise<readonly string[]> | undefined;
  private readonly counts = { pages: 0, orientationPasses: 0, blankPages: 0 };

  constructor(options: TesseractOcrEngineOptions = {}) {
    const { commands, ...rest } = options;
    this.options = { ...DEFAULTS, ...definedOnly(rest) };
    if (!(Number.isInteger(this.options.concurrency) && this.options.concurrency >= 1)) {
      throw new Error(`concurrency must be a positive integer, got ${this.options.concurrency}`);
    }
    this.commands = { tesseract: 'tesseract', pdftoppm: 'pdftoppm', pdfinfo: 'pdfinfo', ...definedOnly(commands ?? {}) };
    this.pool = new PagePool(this.options.concurrency);
    this.streams = new TesseractStreams(this.options.concurrency, this.options.idleProcessMs);
    const { dpi, minDpi, maxPagePixels, maxPages } = this.options;
    this.planner = new PagePlanner({
      dpi,
      minDpi,
      maxPagePixels,
      maxPages,
      pdfinfo: this.commands.pdfinfo,
      pdftoppm: this.commands.pdftoppm,
      pool: this.pool,
      limits: (signal) => this.limits(signal),
    });
  }

  /**
   * Pages read so far, how many of them needed the orientation pass, and the rendered pages found blank and not
   * read (for benchmarks and diagnostics).
   */
  get stats(): { readonly pages: number; readonly orientationPasses: number; readonly blankPages: number } {
    return { ...this.counts };
  }

  /** The languages of `tesseract --list-langs`, without `osd`; asked once per engine (again after a failure). */
  async languages(): Promise<readonly string[]> {
    return (await this.installedData()).filter((code) => code !== OSD);
  }

  async recognize(input: OcrInput): Promise<OcrOutput> {
    const languages = await this.checkLanguages(input.language);
    // The size is known without the file: a file too large is refused before it is read.
    if (input.size > this.options.maxInputBytes) throw this.tooLarge();
    const bytes = await input.readBytes();
    const format = this.checkFile(bytes, input.mimeType);
    const withOsd = (await this.installedData()).includes(OSD);
    const directory = await mkdtemp(path.join(this.options.tempDir, 'docservice-ocr-'));
    const controller = new AbortController();
    try {
      // The document's turn in the pool's round: every process of this document queues under it.
      const turn = {};
      const plans = await this.planner.plan(bytes, format, directory, controller.signal, turn, format === 'pdf' ? input.pages : undefined);
      const marker = await writeInput(directory, MARKER_FILE, MARKER_PAGE);
      return await this.readPages(plans, { directory, marker, languages, withOsd, controller, onProgress: input.onProgress, priority: input.priority, turn });
    } finally {
      controller.abort(new Error('the document is done'));
      await rm(directory, { recursive: true, force: true });
    }
  }

  private tooLarge(): OcrFailure {
    return new OcrFailure('too_large', `The file is larger than ${Math.floor(this.options.maxInputBytes / MiB)} MiB`);
  }

  private installedData(): Promise<readonly string[]> {
    this.installed ??= this.listLanguages();
    this.installed.catch(() => (this.installed = undefined));
    return this.installed;
  }

  private async listLanguages(): Promise<readonly string[]> {
    const result = await runProcess(this.commands.tesseract, ['--list-langs'], this.limits(new AbortController().signal));
    if (result.code !== 0) throw new Error(`tesseract --list-langs failed: ${result.stderr.trim() || `exit code ${result.code}`}`);
    // The first line is "List of available languages in ...", then one code per line.
    return result.stdout
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .filter((code) => LANGUAGE_CODE.test(code))
      .sort();
  }

  private async checkLanguages(language: string): Promise<string> {
    const codes = language.split('+');
    const known = await this.languages();
    const unknown = codes.filter((code) => !LANGUAGE_CODE.test(code) || !known.includes(code));
    if (unknown.length > 0 || codes.length === 0) {
      throw new OcrFailure(
        'unsupported_language',
        `The OCR language ${JSON.stringify(unknown.join('+') || language)} is not available; available: ${known.join(', ')}`,
      );
    }
    return codes.join('+');
  }

  /** The checks that need no process: size and format, from the bytes (the declared type is only a hint). */
  private checkFile(bytes: Uint8Array, mimeType: string): ImageFormat {
    if (bytes.length === 0) throw new OcrFailure('unreadable_file', 'The file is empty');
    if (bytes.length > this.options.maxInputBytes) throw this.tooLarge();
    const format = sniffFormat(bytes);
    if (!format) {
      if (MIME_TYPES[mimeType]) throw new OcrFailure('unreadable_file', `The file is not a readable ${mimeType} file`);
      throw new OcrFailure('unsupported_type', `Files of type ${mimeType} cannot be read; PDF, PNG, JPEG, TIFF and WebP can`);
    }
    if (!looksComplete(bytes, format)) throw new OcrFailure('unreadable_file', `The ${format.toUpperCase()} file is truncated`);
    return format;
  }

  private limits(signal: AbortSignal, env?: NodeJS.ProcessEnv): ProcessLimits {
    return { timeoutMs: this.options.processTimeoutMs, memoryLimitBytes: this.options.memoryLimitBytes, signal, ...(env ? { env } : {}) };
  }

  private async readPages(
    plans: PagePlan[],
    context: {
      directory: string;
      marker: string;
      languages: string;
      withOsd: boolean;
      controller: AbortController;
      onProgress: OcrInput['onProgress'];
      priority: OcrInput['priority'];
      turn: object;
    },
  ): Promise<OcrOutput> {
    const { directory, controller, onProgress } = context;
    const { signal } = controller;
    const total = plans.length;
    let done = 0;
    let progress: Promise<void> = Promise.resolve();
    let firstError: unknown;

    const readOne = async (plan: PagePlan, index: number): Promise<PageText> => {
      try {
        const text: PageText = plan.tooLarge ? { text: '', confidences: [], passes: 1 } : await this.pool.run(async () => {
          const image = await plan.prepare(directory, signal);
          try {
            // A rendered PDF page that is blank paper (a scanned blank page) is not read: checking costs a fraction of reading.
            // Rasters above BLANK_CHECK_MAX_BYTES are read as before, so the check never holds a huge page in memory.
            if (image.endsWith('.pgm') && (await stat(image)).size <= BLANK_CHECK_MAX_BYTES && blankPgm(await readFile(image))) {
              return { text: '', confidences: [], passes: 0, blank: true };
            }
            return await readPage({
              tesseract: this.commands.tesseract,
              streams: this.streams,
              image,
              marker: context.marker,
              outputRoot: path.join(directory, `page-${index + 1}-ocr`),
              page: index + 1,
              languages: context.languages,
              dpi: plan.dpi,
              withOsd: context.withOsd,
              limits: this.limits(signal, { ...process.env, OMP_THREAD_LIMIT: '1' }),
            });
          } finally {
            await rm(image, { force: true });
          }
        }, signal, context.priority ?? 'normal', context.turn);
        if (text.blank) this.counts.blankPages++;
        else this.counts.pages++;
        if (text.passes === 2) this.counts.orientationPasses++;
        // Outside the pool slot: a slow listener slows this document, not the others.
        progress = progress.then(() => onProgress?.({ done: ++done, total }));
        await progress;
        return text;
      } catch (error) {
        if (firstError === undefined) {
          firstError = error;
          controller.abort(new Error('another page of the document failed'));
        }
        throw error;
      }
    };

    const settled = await Promise.allSettled(plans.map(readOne));
    if (firstError !== undefined) throw firstError;
    const pages = settled.map((outcome) => (outcome as PromiseFulfilledResult<PageText>).value);
    const confidences = pages.flatMap((page) => page.confidences);
    const fraction = (values: readonly number[]): number =>
      values.length > 0 ? Math.min(1, Math.max(0, values.reduce((sum, c) => sum + c, 0) / values.length / 100)) : 0;
    return {
      text: pages.map((page) => page.text).join(PAGE_SEPARATOR),
      confidence: fraction(confidences),
      pages: total,
      pageTexts: pages.map((page) => ({
        text: page.text,
        confidence: fraction(page.confidences),
        words: page.confidences.length,
        boxes: page.boxes ?? [],
        ...(page.blank ? { blank: true } : {}),
      })),
    };
  }
}
