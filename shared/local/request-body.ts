import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { logger } from '../observability/logger';

const MIB = 1024 * 1024;

/**
 * How much of a body is held in memory while it arrives: JSON requests fit, and a larger body goes to a spool
 * file, so that a body held incomplete costs disk, not memory, whatever its Content-Length claims.
 */
export const BODY_MEMORY_WINDOW_BYTES = MIB;

/** How long a body may go without a byte before it is cut off (REQUEST_BODY_IDLE_TIMEOUT_SECONDS). */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 30_000;

/**
 * How long a whole body may take: a minute, plus two seconds per MiB the limit allows (an average of 512 KiB/s
 * for a body of the limit's size), so that a larger limit does not cut off the uploads it allows.
 */
export const bodyTotalTimeoutMs = (maxBytes: number): number => 60_000 + Math.ceil(maxBytes / MIB) * 2_000;

/** When a body stops arriving. */
export interface BodyTimeouts {
  /** No byte for this long ends the body. */
  idleMs: number;
  /** The whole body must have arrived this long after reading began. */
  totalMs: number;
}

export interface BodyReaderOptions extends BodyTimeouts {
  /** A larger body (declared or received) is refused with `tooLarge`, and the rest of it is read and dropped. */
  maxBytes: number;
  /** Up to this many bytes stay in memory; past them the body goes to a file under `spoolDir`. */
  memoryWindowBytes: number;
  spoolDir: string;
  /** The refusal of a body over `maxBytes`, given the bytes declared or received so far. */
  tooLarge(receivedBytes: number): Error;
}

/** A body received whole, in memory or in its spool file. */
export interface ReceivedBody {
  readonly size: number;
  /** The spool file, while there is one. */
  readonly spoolPath: string | null;
  /** The whole body; a spooled one is read from its file, which is removed then. */
  bytes(): Promise<Buffer>;
  /** Removes the spool file, if any; safe to call more than once. */
  dispose(): Promise<void>;
}

/** A body that stopped arriving: nothing for `idleMs`, or not complete within `totalMs`. */
export class BodyTimeoutError extends Error {
  constructor(
    readonly bound: 'idle' | 'total',
    readonly receivedBytes: number,
  ) {
    super(`the request body was not received in time (${bound})`);
    this.name = 'BodyTimeoutError';
  }
}

/** The client went away before its body was complete: there is nobody left to answer. */
export class BodyAbortedError extends Error {
  constructor(readonly receivedBytes: number) {
    super('the client closed the connection before the request body was complete');
    this.name = 'BodyAbortedError';
  }
}

/** Whether the request carries a body: a non-zero Content-Length, or a chunked one of unknown length. */
export function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/** The body length the request declares; 0 without a Content-Length (a chunked body is judged as it arrives). */
export const declaredLength = (request: IncomingMessage): number => Number(request.headers['content-length'] ?? 0) || 0;

/**
 * Receives a request's body within `options`' bounds: the first `memoryWindowBytes` in memory, the rest spooled
 * to a private file as it arrives (with backpressure, so a slow disk slows the client rather than filling
 * memory). It rejects with `tooLarge` above `maxBytes` (then drops the rest of the body, still within the
 * bounds, so that a client still sending reads the refusal), with {@link BodyTimeoutError} when the body stops
 * arriving, and with {@link BodyAbortedError} when the client goes away; in each case no spool file is left.
 */
export function receiveBody(request: IncomingMessage, options: BodyReaderOptions): Promise<ReceivedBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let spool: Spool | null = null;
    let settled = false;
    const idle = setTimeout(() => timedOut('idle'), options.idleMs);
    const total = setTimeout(() => timedOut('total'), options.totalMs);

    const stopTimers = () => {
      clearTimeout(idle);
      clearTimeout(total);
    };
    const detach = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onGone);
      request.off('close', onGone);
    };
    /** Set once a body is refused as too large: its rest is dropped, still within the timeouts. */
    let draining = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      if (!draining) stopTimers();
      detach();
      chunks.length = 0;
      // Settled once the spool file is gone, so that whoever answers the request leaves nothing behind.
      const discarded = spool?.discard() ?? Promise.resolve();
      discarded
        .catch((cause: unknown) => logger.warn('could not remove a spooled request body', { path: spool?.path, error: cause }))
        .finally(() => reject(error));
    };
    function timedOut(bound: 'idle' | 'total') {
      stopTimers();
      // The rest of a refused body stopped arriving: the refusal is out, so the connection just ends.
      if (draining) request.socket.destroy();
      else fail(new BodyTimeoutError(bound, received));
    }
    function onGone() {
      fail(new BodyAbortedError(received));
    }
    /** Refuses the body as too large and drops the rest of it, until it ends or stops arriving. */
    const refuse = (bytes: number) => {
      draining = true;
      fail(options.tooLarge(bytes));
      request.on('data', () => idle.refresh());
      request.once('end', stopTimers);
      request.once('close', stopTimers);
      request.resume();
    };
    function onData(chunk: Buffer) {
      received += chunk.length;
      idle.refresh();
      if (received > options.maxBytes) return refuse(received);
      if (spool) return spool.write(chunk, request);
      chunks.push(chunk);
      if (received <= options.memoryWindowBytes) return;
      spool = openSpool(options.spoolDir, fail);
      for (const held of chunks.splice(0)) spool.write(held, request);
    }
    function onEnd() {
      stopTimers();
      if (settled) return;
      detach();
      const size = received;
      if (!spool) {
        settled = true;
        const bytes = Buffer.concat(chunks, size);
        chunks.length = 0;
        resolve({ size, spoolPath: null, bytes: async () => bytes, dispose: async () => undefined });
        return;
      }
      const file = spool;
      file.close().then(
        () => {
          settled = true;
          resolve(spooledBody(file.path, size));
        },
        (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
      );
    }

    if (request.destroyed || request.readableAborted) {
      onGone();
      return;
    }
    const declared = declaredLength(request);
    if (declared > options.maxBytes) {
      refuse(declared);
      return;
    }
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onGone);
    request.on('close', onGone);
  });
}

/** A complete body in its spool file: read once, right before the handler runs, and removed then. */
function spooledBody(path: string, size: number): ReceivedBody {
  let present = true;
  const dispose = async () => {
    if (!present) return;
    present = false;
    await rm(path, { force: true });
  };
  return {
    size,
    get spoolPath() {
      return present ? path : null;
    },
    bytes: async () => {
      try {
        return await readFile(path);
      } finally {
        await dispose();
      }
    },
    dispose,
  };
}

interface Spool {
  path: string;
  /** Writes a chunk, pausing the request until the file has taken it. */
  write(chunk: Buffer, request: IncomingMessage): void;
  /** Ends the file once everything written is on disk. */
  close(): Promise<void>;
  /** Stops writing and removes the file. */
  discard(): Promise<void>;
}

/** A private file (0600, created new) under `dir` for one body; a write error fails the body. */
function openSpool(dir: string, onError: (error: Error) => void): Spool {
  const path = join(dir, `request-body-${randomUUID()}`);
  const stream: WriteStream = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  stream.on('error', onError);
  const closed = new Promise<void>((resolveClose) => stream.once('close', () => resolveClose()));
  return {
    path,
    write(chunk, request) {
      if (stream.write(chunk)) return;
      request.pause();
      stream.once('drain', () => {
        if (!stream.destroyed) request.resume();
      });
    },
    close: () =>
      new Promise<void>((resolveEnd, rejectEnd) => {
        stream.once('error', rejectEnd);
        stream.end(() => closed.then(() => resolveEnd()));
      }),
    async discard() {
      // The file is created when the stream opens, which may be after this call: remove it only once closed.
      stream.destroy();
      await closed;
      await rm(path, { force: true });
    },
  };
}
