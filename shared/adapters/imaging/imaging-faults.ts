/** How an imaging job fails: the file's fault, a busy pool, or a worker that cannot start. */

/** Why a file failed: refused by the worker (corrupt, over a bound), too slow, out of heap, or it broke the worker. */
export type FileFaultKind = 'refused' | 'timeout' | 'memory' | 'crashed';

/** The file is at fault: refused, corrupt, too slow or too large to process. The reason is safe to show. */
export class FileFault extends Error {
  constructor(
    readonly kind: FileFaultKind,
    readonly reason: string,
    /** True when the failure was remembered from an earlier job rather than seen now. */
    readonly remembered = false,
  ) {
    super(reason);
    this.name = 'FileFault';
  }
}

/** No worker became free in time, or the queue is full: try again later. Not the file's fault. */
export class PoolBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`every imaging worker is busy; retry in ${retryAfterSeconds} s`);
    this.name = 'PoolBusy';
  }
}

/** The worker itself cannot start: a deployment fault (an internal error), not a bad file. */
export class WorkerStartError extends Error {
  constructor(cause: unknown) {
    super(`The imaging worker did not start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'WorkerStartError';
  }
}
