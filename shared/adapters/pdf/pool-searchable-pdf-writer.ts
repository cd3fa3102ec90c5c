import type { OcrWord } from '../../domain/ocr/page-texts';
import { SearchablePdfRefused, type SearchablePdfWriter } from '../../domain/ocr/ports';
import { looksComplete, sniffFormat } from '../imaging/formats';
import { FileFault, PoolBusy } from '../imaging/imaging-faults';
import { TEXT_LAYER_LANE } from '../imaging/pdf-text-layer-reader';
import { ImagingPool, type ImagingPoolOptions } from '../imaging/worker-pool';

/** Bounds of {@link PoolSearchablePdfWriter}; every field has a default. */
export interface PoolSearchablePdfWriterOptions {
  /** The workers to write on, shared with other imaging work; by default a pool of its own (`poolOptions`). */
  readonly pool?: ImagingPool;
  readonly poolOptions?: ImagingPoolOptions;
  /** Larger files get no searchable PDF. @default 100 MiB (the text-layer reader's bound) */
  readonly maxInputBytes?: number;
  /** Files with more pages get none. @default 500 (the OCR engine's page bound) */
  readonly maxPages?: number;
  /** An image page above this many pixels is refused before decoding. @default 100e6 (the OCR engine's) */
  readonly maxPixels?: number;
  /** A write still running after this is stopped (its worker is terminated). @default 60000 */
  readonly timeoutMs?: number;
  /** A write that could not start within this (every worker busy) is given up: a transient error. @default 60000 */
  readonly maxWaitMs?: number;
}

const MiB = 1024 * 1024;

const DEFAULTS = {
  maxInputBytes: 100 * MiB,
  maxPages: 500,
  maxPixels: 100_000_000,
  timeoutMs: 60_000,
  maxWaitMs: 60_000,
} as const satisfies Omit<Required<PoolSearchablePdfWriterOptions>, 'pool' | 'poolOptions'>;

const sizeText = (bytes: number): string => (bytes >= MiB ? `${Math.floor(bytes / MiB)} MiB` : `${bytes} bytes`);

/**
 * {@link SearchablePdfWriter} on pdf-lib (MIT), run in an {@link ImagingPool}'s worker thread
 * (pdf/searchable-pdf.ts): the worker's thread never parses the file, and the write is bounded in input size,
 * pages, pixels per image page, time and memory (the pool's caps). Whatever the file's fault (corrupt,
 * encrypted, over a bound, too slow) is a {@link SearchablePdfRefused} with the reason.
 */
export class PoolSearchablePdfWriter implements SearchablePdfWriter {
  private readonly options: Omit<Required<PoolSearchablePdfWriterOptions>, 'pool' | 'poolOptions'>;
  private readonly pool: ImagingPool;
  private readonly ownsPool: boolean;

  constructor(options: PoolSearchablePdfWriterOptions = {}) {
    const { pool, poolOptions, ...limits } = options;
    const given = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
    this.options = { ...DEFAULTS, ...given };
    this.pool = pool ?? new ImagingPool(poolOptions);
    this.ownsPool = !pool;
  }

  get maxInputBytes(): number {
    return this.options.maxInputBytes;
  }

  async write(file: { bytes: Uint8Array; mimeType: string }, pages: (readonly OcrWord[] | null)[]): Promise<Uint8Array> {
    const { bytes } = file;
    if (bytes.length > this.options.maxInputBytes) throw new SearchablePdfRefused(`The file is larger than ${sizeText(this.options.maxInputBytes)}`);
    const format = sniffFormat(bytes);
    if (!format || !looksComplete(bytes, format)) throw new SearchablePdfRefused('The file is not a complete PDF, PNG, JPEG, TIFF or WebP file');
    if (pages.length > this.options.maxPages) throw new SearchablePdfRefused(`The file has more than ${this.options.maxPages} pages`);
    const { maxPages, maxPixels, timeoutMs, maxWaitMs } = this.options;
    try {
      return await this.pool.run('searchable-pdf', { bytes, format, pages, maxPages, maxPixels }, { timeoutMs, maxWaitMs, lane: TEXT_LAYER_LANE });
    } catch (error) {
      if (error instanceof FileFault) throw new SearchablePdfRefused(`The searchable PDF cannot be written within limits: ${error.reason}`);
      if (error instanceof PoolBusy) throw new Error(`The searchable PDF could not be written: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /** Stops the writer's own pool; a shared pool is left to its owner. */
  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.close();
  }
}
