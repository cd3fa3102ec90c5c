/**
 * The tesseract streams of one engine (tesseract-stream.ts): a page is read by an idle stream with the same
 * settings, or by a new one, under the same time limit and abort as a one-shot process. Streams are kept between
 * pages, at most one idle per slot of the engine, and closed after a while without work, so an idle runtime holds
 * no tesseract process.
 */
import { OcrFailure } from '../../domain/ocr/ports';
import type { StreamedPage } from './tesseract-stream-output';
import { StreamEnded, TesseractStream, type StreamSettings } from './tesseract-stream';
import { launchFailure, type ProcessLimits } from './tesseract-processes';

/**
 * A stream is closed after this many pages and the next page starts a new one: whatever a process keeps from
 * page to page (heap fragments after a very large page) is bounded, for one process start per this many pages.
 */
const PAGES_PER_PROCESS = 200;

export interface StreamedRead {
  tesseract: string;
  languages: string;
  dpi: number | undefined;
  /** The image to read: a path without line breaks. */
  image: string;
  /** The path of a copy of MARKER_PAGE. */
  marker: string;
  limits: ProcessLimits;
}

interface IdleStream {
  key: string;
  stream: TesseractStream;
  timer: NodeJS.Timeout;
}

export class TesseractStreams {
  /** Least recently used first. */
  private readonly idle: IdleStream[] = [];

  /**
   * @param maxIdle streams kept between pages: one per slot of the engine's page pool.
   * @param idleCloseMs a stream without work for this long is closed.
   */
  constructor(
    private readonly maxIdle: number,
    private readonly idleCloseMs: number,
  ) {}

  /**
   * Reads one page. A timeout rejects with OcrFailure `timeout` and an abort with the signal's reason, both once
   * the stream's process has exited (so the caller may delete the image); a command that could not run rejects as
   * `runProcess` does ({@link launchFailure}), and a process that ended by itself with StreamEnded.
   */
  async read(read: StreamedRead): Promise<StreamedPage> {
    const { signal, timeoutMs, memoryLimitBytes, env } = read.limits;
    signal.throwIfAborted();
    const settings: StreamSettings = { tesseract: read.tesseract, languages: read.languages, dpi: read.dpi, memoryLimitBytes, env: env ?? process.env };
    const key = JSON.stringify([settings.tesseract, settings.languages, settings.dpi, memoryLimitBytes, settings.env.OMP_THREAD_LIMIT]);
    const stream = this.take(key) ?? new TesseractStream(settings);
    let failure: Error | undefined;
    const stop = (error: Error): void => {
      failure ??= error;
      stream.kill();
    };
    const onAbort = (): void => stop(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(
      () => stop(new OcrFailure('timeout', `Reading the file took too long (tesseract read one page longer than ${Math.round(timeoutMs / 1000)} s)`)),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const page = await stream.read(read.image, read.marker);
      this.keep(key, stream);
      return page;
    } catch (error) {
      // Whatever went wrong, the stream's state is unknown: it reads no further page.
      stream.kill();
      if (failure === undefined && error instanceof StreamEnded) {
        const { result, startError } = error;
        throw launchFailure(read.tesseract, startError ? { error: startError } : result, memoryLimitBytes > 0) ?? error;
      }
      if (failure === undefined) throw error;
      await stream.ended;
      throw failure;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** The most recently used idle stream with these settings that can still read. */
  private take(key: string): TesseractStream | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const entry = this.idle[i]!;
      if (entry.key !== key) continue;
      this.idle.splice(i, 1);
      clearTimeout(entry.timer);
      if (entry.stream.usable) return entry.stream;
      entry.stream.close();
    }
    return undefined;
  }

  private keep(key: string, stream: TesseractStream): void {
    if (!stream.usable || stream.pagesRead >= PAGES_PER_PROCESS) {
      stream.close();
      return;
    }
    const entry: IdleStream = { key, stream, timer: setTimeout(() => this.drop(entry), this.idleCloseMs).unref() };
    this.idle.push(entry);
    if (this.idle.length > this.maxIdle) this.drop(this.idle[0]!);
  }

  private drop(entry: IdleStream): void {
    const at = this.idle.indexOf(entry);
    if (at >= 0) this.idle.splice(at, 1);
    clearTimeout(entry.timer);
    entry.stream.close();
  }
}
