import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Thumbnail, ThumbnailRenderer } from '../../domain/documents/thumbnails';
import { validationError, type AppError } from '../../domain/errors';
import { looksComplete, sniffFormat } from './formats';
import type { RenderJob } from './render-page';
import type { WorkerReady, WorkerRequest, WorkerResponse } from './render-worker';

/** Limits and output of {@link WasmThumbnailRenderer}; every field has a default. */
export interface WasmThumbnailRendererOptions {
  /** Files larger than this are refused unread. @default 50 MiB */
  readonly maxInputBytes?: number;
  /** Images (all those a page draws, together) above this many pixels are refused before decoding. @default 100e6 */
  readonly maxPixels?: number;
  /** Largest width or height of the box. @default 1024 */
  readonly maxSide?: number;
  /** A render still running after this is stopped (its worker is terminated). @default 8000 */
  readonly timeoutMs?: number;
  /** The worker is replaced after a job that leaves it holding more WebAssembly memory than this. @default 256 MiB */
  readonly recycleAboveBytes?: number;
  /** V8 heap limit of the worker (JavaScript objects only: WebAssembly memory is not counted). @default 64 */
  readonly workerHeapMb?: number;
  /** PNG (lossless, sharp text) or JPEG (a fraction of the size for photos and scans). @default 'png' */
  readonly output?: 'png' | 'jpeg';
  /** @default 80 */
  readonly jpegQuality?: number;
  /** Worker entry to run instead of the one found beside this module (see {@link workerEntry}). */
  readonly workerUrl?: URL;
}

const MiB = 1024 * 1024;

const DEFAULTS = {
  maxInputBytes: 50 * MiB,
  maxPixels: 100_000_000,
  maxSide: 1024,
  timeoutMs: 8000,
  recycleAboveBytes: 256 * MiB,
  workerHeapMb: 64,
  output: 'png',
  jpegQuality: 80,
} as const satisfies Omit<Required<WasmThumbnailRendererOptions>, 'workerUrl'>;

/** File name of the bundled worker that the Lambda bundling writes next to the function's `index.mjs`. */
export const BUNDLED_WORKER_FILE = 'thumbnail-worker.mjs';

/** tsx's ESM API file, from its export map (`require.resolve` would pick the CommonJS build). */
const tsxEsmApiPath = (): string => {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  return path.join(path.dirname(manifest), exports['./esm/api']?.import?.default ?? 'dist/esm/api/index.mjs');
};

/**
 * How to start the worker: `thumbnail-worker.mjs` beside this module once bundled (the Lambda asset), else
 * `render-worker.ts` from source through tsx's loader (local runtime, tests), registered inside the worker
 * because Node 20 does not pass `--import` loaders on to worker threads.
 */
export const workerEntry = (): { code: URL | string; eval: boolean } => {
  const bundled = new URL(`./${BUNDLED_WORKER_FILE}`, import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return { code: bundled, eval: false };
  const tsxApi = pathToFileURL(tsxEsmApiPath()).href;
  const source = new URL('./render-worker.ts', import.meta.url).href;
  return {
    code: `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`,
    eval: true,
  };
};

const cannotRender = (reason: string): AppError =>
  validationError(`The file cannot be rendered as a thumbnail: ${reason}`, [{ field: 'file', reason }]);

/** Thrown when the worker itself cannot start: a deployment fault (an internal error), not a bad file. */
class WorkerStartError extends Error {
  constructor(cause: unknown) {
    super(`The thumbnail worker did not start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'WorkerStartError';
  }
}

interface RunningWorker {
  worker: Worker;
  ready: Promise<void>;
}

/**
 * {@link ThumbnailRenderer} on MuPDF and libwebp compiled to WebAssembly: no native binary, so the same code runs
 * on a developer machine and in Lambda (arm64 or x86).
 *
 * - Formats are recognised by their magic bytes, not by the declared MIME type: PDF (first page), PNG, JPEG and
 *   TIFF through MuPDF, WebP through libwebp. Anything else, a 0-byte file included, is refused at once.
 * - The thumbnail fits in the box with its aspect ratio kept. PDF pages are scaled to the box; raster images
 *   are only ever reduced, never enlarged beyond their own pixel size. Transparency is composited on white.
 * - Output is PNG by default (exact for text and line art); `output: 'jpeg'` trades that for size.
 * - Bounds: files above `maxInputBytes` and images above `maxPixels` (read from headers, before anything is
 *   decoded, so a decompression bomb such as a 35000x35000 JBIG2 image in 11 KB is refused unread) fail at once.
 *   Rendering runs in one worker thread, one job at a time: a job still running after `timeoutMs` is stopped by
 *   terminating the worker, and a worker left holding more than `recycleAboveBytes` of WebAssembly memory, or
 *   one whose job failed, is replaced, so memory that WebAssembly cannot give back is given back by the thread.
 *
 * Every failure caused by the file is an AppError `VALIDATION_ERROR` on field `file`; a worker that cannot
 * start at all (a broken deployment) is a plain Error, i.e. an internal error. Call {@link close} to stop the
 * worker (tests, shutdown); an idle worker does not keep the process alive.
 */
export class WasmThumbnailRenderer implements ThumbnailRenderer {
  private readonly options: Omit<Required<WasmThumbnailRendererOptions>, 'workerUrl'> & { workerUrl?: URL };
  private current: RunningWorker | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  constructor(options: WasmThumbnailRendererOptions = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  async render(file: Uint8Array, mimeType: string, box: { width: number; height: number }): Promise<Thumbnail> {
    const job = this.prepare(file, mimeType, box);
    const run = this.queue.then(() => this.run(job));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the worker; a later render starts a new one. */
  async close(): Promise<void> {
    const running = this.current;
    this.current = undefined;
    if (running) await running.worker.terminate();
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
      output: this.options.output,
      jpegQuality: this.options.jpegQuality,
    };
  }

  private start(): RunningWorker {
    const entry = this.options.workerUrl ? { code: this.options.workerUrl, eval: false } : workerEntry();
    const worker = new Worker(entry.code, {
      eval: entry.eval,
      resourceLimits: { maxOldGenerationSizeMb: this.options.workerHeapMb, maxYoungGenerationSizeMb: 16 },
      stdout: false,
      stderr: false,
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: WorkerReady | WorkerResponse): void => {
        if ('ready' in message) {
          worker.off('error', onError).off('exit', onExit).off('message', onMessage);
          resolve();
        }
      };
      const onError = (error: unknown): void => reject(new WorkerStartError(error));
      const onExit = (code: number): void => reject(new WorkerStartError(`exit code ${code}`));
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
    });
    ready.catch(() => undefined);
    return { worker, ready };
  }

  private async retire(running: RunningWorker): Promise<void> {
    if (this.current === running) this.current = undefined;
    await running.worker.terminate();
  }

  private async run(job: RenderJob): Promise<Thumbnail> {
    const running = (this.current ??= this.start());
    try {
      await running.ready;
    } catch (error) {
      await this.retire(running);
      throw error;
    }
    const { worker } = running;
    worker.ref();
    const id = this.nextId++;
    try {
      const response = await new Promise<WorkerResponse>((resolve, reject) => {
        const cleanup = (): void => {
          clearTimeout(timer);
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        };
        const onMessage = (message: WorkerResponse): void => {
          if (message.id !== id) return;
          cleanup();
          resolve(message);
        };
        const onError = (error: Error): void => {
          cleanup();
          const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
          reject(cannotRender(outOfMemory ? 'decoding it needs more memory than allowed' : 'the decoder failed'));
        };
        const onExit = (): void => {
          cleanup();
          reject(cannotRender('the decoder stopped'));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(cannotRender(`rendering took longer than ${this.options.timeoutMs} ms`));
        }, this.options.timeoutMs);
        worker.on('message', onMessage).once('error', onError).once('exit', onExit);
        worker.postMessage({ id, job } satisfies WorkerRequest);
      });
      if (!response.ok) {
        await this.retire(running);
        throw cannotRender(response.reason);
      }
      if (response.externalBytes > this.options.recycleAboveBytes) await this.retire(running);
      const { bytes, mimeType, width, height } = response.thumbnail;
      return { bytes, mimeType, width, height };
    } catch (error) {
      await this.retire(running);
      throw error;
    } finally {
      worker.unref();
    }
  }
}
