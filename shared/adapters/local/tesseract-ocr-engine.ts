import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { OcrFailure, type OcrEngine, type OcrInput, type OcrOutput } from '../../domain/ocr/ports';
import { looksComplete, sniffFormat, webpDimensions, type ImageFormat } from '../imaging/formats';

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
  memoryLimitBytes: 2048 * MiB,
  tempDir: os.tmpdir(),
} as const;

/** Between the text of two pages: a form feed (as pdftotext and tesseract mark pages) on a line of its own. */
export const PAGE_SEPARATOR = '\n\f\n';

/** Language data that is not a language: orientation and script detection. */
const OSD = 'osd';

// ---- child processes -------------------------------------------------------------------------------------

interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface ProcessLimits {
  timeoutMs: number;
  memoryLimitBytes: number;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Output kept per stream (its tail): pdfinfo on a hostile file must not fill the heap. */
const MAX_OUTPUT_CHARS = 1_000_000;
/** sh's exit codes for a command not found and one not executable. */
const SHELL_NOT_FOUND = 127;
const SHELL_NOT_EXECUTABLE = 126;

/** The command is missing or cannot be executed: a broken machine (transient for the job), never the file's fault. */
class CommandUnavailable extends Error {
  constructor(command: string, detail: string) {
    super(`${command} cannot be run: ${detail}`);
    this.name = 'CommandUnavailable';
  }
}

/**
 * Runs `command args` and resolves with how it ended, whatever the exit code. With a memory cap it is started
 * as `sh -c 'ulimit -v KB; exec "$@"' sh KB command args...`: the arguments still travel as an array (nothing is
 * interpolated into the script), and `exec` makes the command itself the process that SIGKILL reaches. A timeout
 * rejects with OcrFailure `timeout`, an abort with the signal's reason; both only once the process has exited, so
 * the caller may delete the files it had open.
 */
const runProcess = (command: string, args: readonly string[], limits: ProcessLimits): Promise<ProcessResult> => {
  const { timeoutMs, memoryLimitBytes, signal, env } = limits;
  signal.throwIfAborted();
  const viaShell = memoryLimitBytes > 0;
  const [file, argv] = viaShell
    ? ['sh', ['-c', 'ulimit -v "$1" || exit 126; shift; exec "$@"', 'sh', String(Math.ceil(memoryLimitBytes / 1024)), command, ...args]]
    : [command, [...args]];
  return new Promise<ProcessResult>((resolve, reject) => {
    const child = spawn(file, argv, { env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const keepTail = (text: string, chunk: Buffer): string => {
      const next = text + chunk.toString('utf8');
      return next.length > MAX_OUTPUT_CHARS ? next.slice(-MAX_OUTPUT_CHARS) : next;
    };
    child.stdout.on('data', (chunk: Buffer) => (stdout = keepTail(stdout, chunk)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = keepTail(stderr, chunk)));

    let failure: Error | undefined;
    const kill = (error: Error): void => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const onAbort = (): void => kill(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(() => {
      const name = path.basename(command);
      kill(new OcrFailure('timeout', `Reading the file took too long (${name} ran longer than ${Math.round(timeoutMs / 1000)} s)`));
    }, timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };

    child.once('error', (error: NodeJS.ErrnoException) => {
      cleanup();
      const unavailable = error.code === 'ENOENT' || error.code === 'EACCES';
      reject(unavailable ? new CommandUnavailable(command, error.message) : error);
    });
    child.once('close', (code, exitSignal) => {
      cleanup();
      if (failure) reject(failure);
      else if (viaShell && (code === SHELL_NOT_FOUND || code === SHELL_NOT_EXECUTABLE)) {
        reject(new CommandUnavailable(command, stderr.trim().split('\n').pop() || `exit code ${code}`));
      } else resolve({ code, signal: exitSignal, stdout, stderr });
    });
  });
};

/** True when a process died for want of memory: killed by a signal (abort on bad_alloc) or said so. */
const ranOutOfMemory = (result: ProcessResult): boolean =>
  result.signal !== null || /bad_alloc|malloc fail|out of memory|cannot allocate/i.test(result.stderr);

type OcrPriorityHint = NonNullable<OcrInput['priority']>;

// ---- the pool ----------------------------------------------------------------------------------------------

/**
 * At most `size` tasks at once, first come first served within a priority, high before normal (pages of a
 * high-priority document overtake the queued pages of normal ones); a task whose signal is aborted while
 * queued never starts.
 */
class Pool {
  private running = 0;
  private readonly queues: Record<OcrPriorityHint, (() => void)[]> = { high: [], normal: [] };

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>, signal: AbortSignal, priority: OcrPriorityHint = 'normal'): Promise<T> {
    await this.acquire(signal, priority);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal, priority: OcrPriorityHint): Promise<void> {
    const waiting = this.queues[priority];
    signal.throwIfAborted();
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const start = (): void => {
        signal.removeEventListener('abort', onAbort);
        this.running++;
        resolve();
      };
      const onAbort = (): void => {
        const at = waiting.indexOf(start);
        if (at >= 0) waiting.splice(at, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      waiting.push(start);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): void {
    this.running--;
    (this.queues.high.shift() ?? this.queues.normal.shift())?.();
  }
}

// ---- image headers -----------------------------------------------------------------------------------------

interface Size {
  width: number;
  height: number;
}

const pngSize = (bytes: Uint8Array): Size | undefined => {
  if (bytes.length < 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
};

/** Start-of-frame markers carry the size; C4 (Huffman table), C8 (reserved) and CC (arithmetic table) do not. */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

const jpegSize = (bytes: Uint8Array): Size | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (isStartOfFrame(marker)) return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
};

interface TiffLayout {
  littleEndian: boolean;
  /** File offset of each page's IFD, in order. */
  ifds: number[];
  sizes: Size[];
}

/**
 * Walks a classic TIFF's chain of image file directories (one per page), reading each page's size from its
 * tags. Stops after `maxPages + 1` pages (enough to refuse the file) and on a loop in the chain.
 */
const tiffLayout = (bytes: Uint8Array, maxPages: number): TiffLayout | undefined => {
  if (bytes.length < 8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const littleEndian = bytes[0] === 0x49;
  const ifds: number[] = [];
  const sizes: Size[] = [];
  const seen = new Set<number>();
  let ifd = view.getUint32(4, littleEndian);
  while (ifd !== 0 && ifds.length <= maxPages) {
    if (seen.has(ifd) || ifd + 2 > bytes.length) return undefined;
    seen.add(ifd);
    const count = view.getUint16(ifd, littleEndian);
    const next = ifd + 2 + count * 12;
    if (next + 4 > bytes.length) return undefined;
    const size: Partial<Size> = {};
    for (let entry = ifd + 2; entry < next; entry += 12) {
      const tag = view.getUint16(entry, littleEndian);
      if (tag !== 256 && tag !== 257) continue;
      const type = view.getUint16(entry + 2, littleEndian);
      const value = type === 3 ? view.getUint16(entry + 8, littleEndian) : view.getUint32(entry + 8, littleEndian);
      if (tag === 256) size.width = value;
      else size.height = value;
    }
    if (size.width === undefined || size.height === undefined) return undefined;
    ifds.push(ifd);
    sizes.push({ width: size.width, height: size.height });
    ifd = view.getUint32(next, littleEndian);
  }
  return { littleEndian, ifds, sizes };
};

/**
 * Page `index` of a multi-page TIFF as a TIFF file of its own: the same bytes (every offset in a TIFF is
 * absolute, so nothing moves) with the header pointing at that page's directory and the chain cut after it.
 */
const tiffPage = (bytes: Uint8Array, layout: TiffLayout, index: number): Uint8Array => {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  const ifd = layout.ifds[index]!;
  view.setUint32(4, ifd, layout.littleEndian);
  view.setUint32(ifd + 2 + view.getUint16(ifd, layout.littleEndian) * 12, 0, layout.littleEndian);
  return copy;
};

// ---- tesseract output --------------------------------------------------------------------------------------

interface PageText {
  text: string;
  /** Confidences (0..100) of the words read on the page. */
  confidences: number[];
}

const TSV_WORD_LEVEL = '5';

/** Word confidences from tesseract's TSV: level-5 rows with a confidence of 0 or more and some text. */
const wordConfidences = (tsv: string): number[] => {
  const confidences: number[] = [];
  for (const line of tsv.split('\n').slice(1)) {
    const columns = line.split('\t');
    if (columns[0] !== TSV_WORD_LEVEL || columns.length < 12) continue;
    const confidence = Number(columns[10]);
    const text = columns.slice(11).join('\t').trim();
    if (text && Number.isFinite(confidence) && confidence >= 0) confidences.push(confidence);
  }
  return confidences;
};

// ---- the engine --------------------------------------------------------------------------------------------

/** One page to read: how to get its image into the temp dir, and at which resolution it is. */
interface PagePlan {
  /** Writes or renders the page's image; returns its path. */
  prepare: (directory: string, signal: AbortSignal) => Promise<string>;
  /** For rasters without resolution information (pdftoppm's PGM). */
  dpi?: number;
  /** Set when the page is too large to read: it is left out (empty text) if other pages can be read. */
  tooLarge?: string;
}

interface PdfInfo {
  pages: number;
  sizes: Size[];
}

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
 * - Every page is one tesseract process with `OMP_THREAD_LIMIT=1`; a pool of `concurrency` slots (one per core by
 *   default), shared by all documents of this engine, runs them, so the pages of one document are read in
 *   parallel across cores without OpenMP threads fighting over them. Rasterising a page takes a slot too.
 * - Orientation: tesseract runs with `--psm 1` (page segmentation with orientation and script detection) when
 *   `osd` data is installed, which reads pages turned by 90, 180 or 270 degrees; PDF pages carrying a `/Rotate`
 *   are drawn upright by pdftoppm already.
 * - Output: one tesseract run per page writes both its text (`txt`) and its words with confidences (`tsv`).
 *   Pages are joined with {@link PAGE_SEPARATOR} (`"\n\f\n"`: a form feed on a line of its own, so page breaks
 *   survive while every search tokeniser sees whitespace); the confidence is the mean of all word confidences
 *   of the document (words with conf >= 0 and text) as a fraction, 0 when no word was read.
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
  private readonly options: Required<Omit<TesseractOcrEngineOptions, 'commands'>>;
  private readonly commands: { tesseract: string; pdftoppm: string; pdfinfo: string };
  private readonly pool: Pool;
  private installed: Promise<readonly string[]> | undefined;

  constructor(options: TesseractOcrEngineOptions = {}) {
    const { commands, ...rest } = options;
    this.options = { ...DEFAULTS, ...definedOnly(rest) };
    if (!(Number.isInteger(this.options.concurrency) && this.options.concurrency >= 1)) {
      throw new Error(`concurrency must be a positive integer, got ${this.options.concurrency}`);
    }
    this.commands = { tesseract: 'tesseract', pdftoppm: 'pdftoppm', pdfinfo: 'pdfinfo', ...definedOnly(commands ?? {}) };
    this.pool = new Pool(this.options.concurrency);
  }

  /** The languages of `tesseract --list-langs`, without `osd`; asked once per engine (again after a failure). */
  async languages(): Promise<readonly string[]> {
    return (await this.installedData()).filter((code) => code !== OSD);
  }

  async recognize(input: OcrInput): Promise<OcrOutput> {
    const languages = await this.checkLanguages(input.language);
    const format = this.checkFile(input);
    const withOsd = (await this.installedData()).includes(OSD);
    const directory = await mkdtemp(path.join(this.options.tempDir, 'docservice-ocr-'));
    const controller = new AbortController();
    try {
      const plans = await this.plan(input.bytes, format, directory, controller.signal);
      return await this.readPages(plans, { directory, languages, withOsd, controller, onProgress: input.onProgress, priority: input.priority });
    } finally {
      controller.abort(new Error('the document is done'));
      await rm(directory, { recursive: true, force: true });
    }
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
  private checkFile({ bytes, mimeType }: OcrInput): ImageFormat {
    if (bytes.length === 0) throw new OcrFailure('unreadable_file', 'The file is empty');
    if (bytes.length > this.options.maxInputBytes) {
      throw new OcrFailure('too_large', `The file is larger than ${Math.floor(this.options.maxInputBytes / MiB)} MiB`);
    }
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

  private checkPageCount(pages: number): void {
    if (pages < 1) throw new OcrFailure('no_pages', 'The document has no pages');
    if (pages > this.options.maxPages) {
      throw new OcrFailure('too_large', `The document has more than ${this.options.maxPages} pages`);
    }
  }

  private checkPixels(size: Size, page: number): void {
    if (!(size.width > 0 && size.height > 0)) throw new OcrFailure('unreadable_file', `Page ${page} has no pixels`);
    if (size.width * size.height > this.options.maxPagePixels) {
      throw new OcrFailure(
        'too_large',
        `Page ${page} is ${size.width}x${size.height} pixels, more than the ${Math.round(this.options.maxPagePixels / 1e6)} megapixels a page may have`,
      );
    }
  }

  /** What to read, page by page, after every check that can be made without decoding a page. */
  private async plan(bytes: Uint8Array, format: ImageFormat, directory: string, signal: AbortSignal): Promise<PagePlan[]> {
    if (format === 'pdf') return this.planPdf(bytes, directory, signal);
    if (format === 'tiff') return this.planTiff(bytes);
    const size = format === 'png' ? pngSize(bytes) : format === 'jpeg' ? jpegSize(bytes) : webpDimensions(bytes);
    if (!size) throw new OcrFailure('unreadable_file', `The ${format.toUpperCase()} header is malformed`);
    this.checkPixels(size, 1);
    return [{ prepare: (dir) => writeInput(dir, `page-1.${format}`, bytes) }];
  }

  private planTiff(bytes: Uint8Array): PagePlan[] {
    const layout = tiffLayout(bytes, this.options.maxPages);
    if (!layout) throw new OcrFailure('unreadable_file', 'The TIFF file is malformed');
    this.checkPageCount(layout.sizes.length);
    layout.sizes.forEach((size, i) => this.checkPixels(size, i + 1));
    if (layout.ifds.length === 1) return [{ prepare: (dir) => writeInput(dir, 'page-1.tiff', bytes) }];
    // Each page's file is written just before it is read and removed after: at most `concurrency` copies at once.
    return layout.ifds.map((_, i) => ({ prepare: (dir) => writeInput(dir, `page-${i + 1}.tiff`, tiffPage(bytes, layout, i)) }));
  }

  private async planPdf(bytes: Uint8Array, directory: string, signal: AbortSignal): Promise<PagePlan[]> {
    const file = await writeInput(directory, 'input.pdf', bytes);
    const info = await this.pool.run(() => this.pdfInfo(file, signal), signal);
    this.checkPageCount(info.pages);
    const { dpi: maxDpi, minDpi, maxPagePixels } = this.options;
    const plans = info.sizes.map((points, i) => {
      const page = i + 1;
      const area = (points.width / 72) * (points.height / 72); // square inches
      if (!(area > 0)) throw new OcrFailure('unreadable_file', `Page ${page} has no area`);
      const dpi = Math.min(maxDpi, Math.floor(Math.sqrt(maxPagePixels / area)));
      const plan: PagePlan = { dpi, prepare: (dir, pageSignal) => this.rasterise(file, page, dpi, dir, pageSignal) };
      if (dpi < minDpi) {
        plan.tooLarge = `Page ${page} is ${Math.round(points.width)}x${Math.round(points.height)} pt, too large to read at ${minDpi} dpi or more within ${Math.round(maxPagePixels / 1e6)} megapixels`;
      }
      return plan;
    });
    // An oversized page among readable ones is left out rather than failing the whole document.
    const refused = plans.find((plan) => plan.tooLarge);
    if (refused && plans.every((plan) => plan.tooLarge)) throw new OcrFailure('too_large', refused.tooLarge!);
    return plans;
  }

  private async pdfInfo(file: string, signal: AbortSignal): Promise<PdfInfo> {
    // One call gives the page count, the encryption and the size of the pages up to the bound (pdfinfo clamps -l).
    const result = await runProcess(this.commands.pdfinfo, ['-f', '1', '-l', String(this.options.maxPages), file], this.limits(signal));
    if (/incorrect password/i.test(result.stderr)) {
      throw new OcrFailure('encrypted', 'The PDF is encrypted with a password');
    }
    const pagesMatch = /^Pages:\s+(\d+)/m.exec(result.stdout);
    if (/invalid page count 0/i.test(result.stderr) || pagesMatch?.[1] === '0') {
      throw new OcrFailure('no_pages', 'The document has no pages');
    }
    if (result.code !== 0 || !pagesMatch) {
      if (result.code !== 0 && ranOutOfMemory(result)) throw new OcrFailure('too_large', 'The PDF needs more memory to open than allowed');
      throw new OcrFailure('unreadable_file', 'The PDF is corrupt or not a PDF');
    }
    const pages = Number(pagesMatch[1]);
    if (pages > this.options.maxPages) return { pages, sizes: [] };
    const sizes: Size[] = [];
    for (const [, page, width, height] of result.stdout.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)) {
      sizes[Number(page) - 1] = { width: Number(width), height: Number(height) };
    }
    if (sizes.length !== pages || sizes.some((size) => size === undefined)) {
      throw new OcrFailure('unreadable_file', 'The PDF page tree is corrupt');
    }
    return { pages, sizes };
  }

  private async rasterise(file: string, page: number, dpi: number, directory: string, signal: AbortSignal): Promise<string> {
    const root = path.join(directory, `page-${page}`);
    // PGM rather than PNG: pdftoppm writes it four times faster, and it is removed right after reading.
    const args = ['-r', String(dpi), '-gray', '-f', String(page), '-l', String(page), '-singlefile', file, root];
    const result = await runProcess(this.commands.pdftoppm, args, this.limits(signal));
    if (result.code !== 0) {
      if (ranOutOfMemory(result)) throw new OcrFailure('too_large', `Page ${page} needs more memory to draw than allowed`);
      throw new OcrFailure('unreadable_file', `Page ${page} of the PDF cannot be drawn`);
    }
    return `${root}.pgm`;
  }

  private async readPages(
    plans: PagePlan[],
    context: {
      directory: string;
      languages: string;
      withOsd: boolean;
      controller: AbortController;
      onProgress: OcrInput['onProgress'];
      priority: OcrInput['priority'];
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
        const text = plan.tooLarge ? { text: '', confidences: [] } : await this.pool.run(async () => {
          const image = await plan.prepare(directory, signal);
          try {
            return await this.tesseract(image, index + 1, plan.dpi, context, signal);
          } finally {
            await rm(image, { force: true });
          }
        }, signal, context.priority);
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
    const mean = confidences.length > 0 ? confidences.reduce((sum, c) => sum + c, 0) / confidences.length : 0;
    return {
      text: pages.map((page) => page.text).join(PAGE_SEPARATOR),
      confidence: Math.min(1, Math.max(0, mean / 100)),
      pages: total,
    };
  }

  private async tesseract(
    image: string,
    page: number,
    dpi: number | undefined,
    context: { directory: string; languages: string; withOsd: boolean },
    signal: AbortSignal,
  ): Promise<PageText> {
    const output = path.join(context.directory, `page-${page}-ocr`);
    const args = [image, output, '-l', context.languages, '--psm', context.withOsd ? '1' : '3'];
    if (dpi) args.push('--dpi', String(dpi));
    args.push('txt', 'tsv');
    const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
    const result = await runProcess(this.commands.tesseract, args, this.limits(signal, env));
    try {
      if (result.code !== 0) {
        if (/failed loading language|error opening data file/i.test(result.stderr)) {
          throw new Error(`tesseract cannot load its language data: ${result.stderr.trim().split('\n').pop() ?? ''}`);
        }
        if (ranOutOfMemory(result)) throw new OcrFailure('too_large', `Page ${page} needs more memory to read than allowed`);
        throw new OcrFailure('unreadable_file', `Page ${page} cannot be read as an image`);
      }
      const [text, tsv] = await Promise.all([readFile(`${output}.txt`, 'utf8'), readFile(`${output}.tsv`, 'utf8')]);
      return { text: text.trim(), confidences: wordConfidences(tsv) };
    } finally {
      await Promise.all([rm(`${output}.txt`, { force: true }), rm(`${output}.tsv`, { force: true })]);
    }
  }
}

const writeInput = async (directory: string, name: string, bytes: Uint8Array): Promise<string> => {
  const file = path.join(directory, name);
  await writeFile(file, bytes);
  return file;
};
