import type { Thumbnail, ThumbnailRenderer } from '../../domain/documents/thumbnails';
import { AppError, validationError } from '../../domain/errors';
import { looksComplete, sniffFormat } from './formats';
import type { RenderJob } from './jobs';
import { FileFault, PoolBusy } from './imaging-faults';
import { ImagingPool, type ImagingPoolOptions } from './worker-pool';

/** Limits and output of {@link CanvasThumbnailRenderer}; every field has a default. */
export interface CanvasThumbnailRendererOptions {
  /** The workers to render on, shared with other imaging work; by default a pool of its own (`poolOptions`). */
  readonly pool?: ImagingPool;
  /** Options of the renderer's own pool when none is given. */
  readonly poolOptions?: ImagingPoolOptions;
  /** Files larger than this are refused unread. @default 50 MiB */
  readonly maxInputBytes?: number;
  /** Images (all those a page draws, together) above this many pixels are refused before decoding. @default 100e6 */
  readonly maxPixels?: number;
  /** A page whose content streams inflate to more than this is refused before it is interpreted. @default 32 MiB */
  readonly maxContentBytes?: number;
  /** Largest width or height of the box. @default 1024 */
  readonly maxSide?: number;
  /** A render still running after this is stopped (its worker is terminated): the file is at fault. @default 8000 */
  readonly timeoutMs?: number;
  /** A render that could not start within this (every worker busy) is answered SERVICE_UNAVAILABLE. @default 10000 */
  readonly maxWaitMs?: number;
  /** PNG (lossless, sharp text) or JPEG (a fraction of the size for photos and scans). @default 'png' */
  readonly output?: 'png' | 'jpeg';
  /** @default 80 */
  readonly jpegQuality?: number;
}

const MiB = 1024 * 1024;

const DEFAULTS = {
  maxInputBytes: 50 * MiB,
  maxPixels: 100_000_000,
  maxContentBytes: 32 * MiB,
  maxSide: 1024,
  timeoutMs: 8000,
  maxWaitMs: 10_000,
  output: 'png',
  jpegQuality: 80,
} as const satisfies Omit<Required<CanvasThumbnailRendererOptions>, 'pool' | 'poolOptions'>;

const cannotRender = (reason: string): AppError =>
  validationError(`The file cannot be rendered as a thumbnail: ${reason}`, [{ field: 'file', reason }]);

const busy = (retryAfterSeconds: number): AppError =>
  new AppError('SERVICE_UNAVAILABLE', `Thumbnail rendering is busy; try again in ${retryAfterSeconds} s`, {
    retry_after_seconds: retryAfterSeconds,
  });

/**
 * {@link ThumbnailRenderer} on pdf.js (Apache-2.0) and `@napi-rs/canvas` (Skia, MIT), run in an {@link ImagingPool}'s
 * worker processes. The canvas is a native module with prebuilt binaries from npm: the Lambda asset carries the
 * one for its architecture (lib/constructs/app-function.ts).
 *
 * - Formats are recognised by their magic bytes, not by the declared MIME type: PDF (first page), PNG, JPEG and
 *   WebP through Skia's decoders, TIFF through UTIF.js. Anything else, a 0-byte file included, is refused at once.
 * - The thumbnail fits in the box with its aspect ratio kept. PDF pages are scaled to the box; raster images
 *   are only ever reduced, never enlarged beyond their own pixel size. Transparency is composited on white.
 * - Output is PNG by default (exact for text and line art); `output: 'jpeg'` trades that for size.
 * - Bounds: files above `maxInputBytes`, images above `maxPixels` (read from headers, before anything is decoded,
 *   so a 35000x35000 JBIG2 image in 11 KB is refused unread) and pages whose content inflates beyond
 *   `maxContentBytes` fail at once; a render is stopped after `timeoutMs`, and the pool caps each worker's memory.
 * - Fairness: renders of one file (`fileKey`) run one at a time, so one document never holds every worker, and a
 *   file refused once is refused at once for every later size. A render that cannot start within `maxWaitMs`
 *   is SERVICE_UNAVAILABLE with `retry_after_seconds`: capacity, not the file.
 *
 * Every failure caused by the file (timeouts included) is an AppError `VALIDATION_ERROR` on field `file`; a
 * worker that cannot start at all (a broken deployment) is a plain Error, i.e. an internal error. Call
 * {@link close} to stop a pool of its own (tests, shutdown).
 */
export class CanvasThumbnailRenderer implements ThumbnailRenderer {
  private readonly options: Omit<Required<CanvasThumbnailRendererOptions>, 'pool' | 'poolOptions'>;
  private readonly pool: ImagingPool;
  private readonly ownsPool: boolean;

  constructor(options: CanvasThumbnailRendererOptions = {}) {
    const { pool, poolOptions, ...limits } = options;
    const given = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
    this.options = { ...DEFAULTS, ...given };
    this.pool = pool ?? new ImagingPool(poolOptions);
    this.ownsPool = !pool;
  }

  async render(file: Uint8Array, mimeType: string, box: { width: number; height: number }, options: { fileKey?: string } = {}): Promise<Thumbnail> {
    const job = this.prepare(file, mimeType, box);
    const { fileKey } = options;
    try {
      const { bytes, mimeType: type, width, height } = await this.pool.run('thumbnail', job, {
        timeoutMs: this.options.timeoutMs,
        maxWaitMs: this.options.maxWaitMs,
        ...(fileKey !== undefined ? { lane: `thumbnail:${fileKey}`, fileKey: `thumbnail:${fileKey}` } : {}),
      });
      return { bytes, mimeType: type, width, height };
    } catch (error) {
      if (error instanceof FileFault) throw cannotRender(error.reason);
      if (error instanceof PoolBusy) throw busy(error.retryAfterSeconds);
      throw error;
    }
  }

  /** Stops the renderer's own pool; a later render starts new workers. A shared pool is left to its owner. */
  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.close();
  }

  /** The checks that need no decoding: the box, the size and the format of the file. */
  private prepare(file: Uint8Array, mimeType: string, box: { width: number; height: number }): RenderJob {
    const { maxSide, maxInputBytes } = this.options;
    for (const field of ['width', 'height'] as const) {
      const side = box[field];
      if (!Number.isInteger(side) || side < 1 || side > maxSide) {
        throw validationError(`The thumbnail ${field} must be an integer from 1 to ${maxSide}`, [
          { field, reason: `must be an integer from 1 to ${maxSide}` },
        ]);
      }
    }
    if (file.length === 0) throw cannotRender('the file is empty');
    if (file.length > maxInputBytes) throw cannotRender(`the file is larger than ${Math.floor(maxInputBytes / MiB)} MiB`);
    const format = sniffFormat(file) ?? (mimeType === 'application/pdf' ? 'pdf' : undefined);
    if (!format) throw cannotRender('it is not a PDF, PNG, JPEG, TIFF or WebP file');
    if (!looksComplete(file, format)) throw cannotRender(`the ${format.toUpperCase()} file is truncated`);
    return {
      bytes: file,
      format,
      box: { width: box.width, height: box.height },
      maxPixels: this.options.maxPixels,
      maxContentBytes: this.options.maxContentBytes,
      output: this.options.output,
      jpegQuality: this.options.jpegQuality,
    };
  }
}
