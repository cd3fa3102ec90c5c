import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FileFault, PoolBusy, WorkerStartError } from './imaging-faults';
import { workerEntry } from './worker-entry';
import { WORKER_MEMORY_BYTES_ENV, withPlainBytes, type ImagingJobKind, type ImagingJobs, type WorkerReady, type WorkerRequest, type WorkerResponse } from './jobs';

/** Size and per-worker limits of an {@link ImagingPool}; every field has a default. */
export interface ImagingPoolOptions {
  /** Worker processes, i.e. jobs that run at once. @default 2 */
  readonly size?: number;
  /**
   * Memory cap of a worker, applied twice: its V8 heap limit (pdf.js parses and decodes in JavaScript), and a cap
   * on its native memory (canvas and decoded-image pixels, WebAssembly). A job going beyond either fails as a
   * {@link FileFault} of kind `memory` or `refused`. @default 512
   */
  readonly memoryMb?: number;
  /** A worker left holding more off-heap memory than this after a job is replaced. @default 256 MiB */
  readonly recycleAboveBytes?: number;
  /** Jobs waiting for a worker, all together; one more is refused at once ({@link PoolBusy}). @default 64 */
  readonly maxQueued?: number;
  /** Jobs waiting in one lane (one document's renders); one more is refused at once. @default 8 */
  readonly maxQueuedPerLane?: number;
  /** Files remembered as refused (least recently refused forgotten first). @default 1000 */
  readonly rememberedFailures?: number;
  /** Worker entry to run instead of the one found beside this module (see {@link workerEntry}). */
  readonly workerUrl?: URL;
  /**
   * Start every worker now rather than on the first job: a worker takes seconds to start (pdf.js is 2 MB of code
   * to compile, then a warm-up render), which a long-running process should not add to its first jobs' waits.
   * A Lambda leaves it off: its cold start would pay for workers that most invocations never use. @default false
   */
  readonly prestart?: boolean;
}

/** How one job is run. */
export interface JobOptions {
  /** A job still running after this is stopped by terminating its worker: a {@link FileFault}. */
  timeoutMs: number;
  /** A job that has not started after waiting this long is given up: a {@link PoolBusy}. */
  maxWaitMs: number;
  /** At most one job of a lane runs at a time, so one caller (one document) never holds every worker. */
  lane?: string;
  /** Identifies the file's content: once a job on it fails for the file's sake, later ones fail at once. */
  fileKey?: string;
}

const MiB = 1024 * 1024;

const DEFAULTS = {
  size: 2,
  memoryMb: 512,
  recycleAboveBytes: 256 * MiB,
  maxQueued: 64,
  maxQueuedPerLane: 8,
  rememberedFailures: 1000,
  prestart: false,
} as const satisfies Omit<Required<ImagingPoolOptions>, 'workerUrl'>;

interface RunningWorker {
  worker: ChildProcess;
  ready: Promise<void>;
}

interface Queued {
  kind: ImagingJobKind;
  input: ImagingJobs[ImagingJobKind]['input'];
  options: JobOptions;
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
  waitTimer: NodeJS.Timeout;
}

/** One worker place: the worker (started on demand) and the job it runs. */
interface Slot {
  running?: RunningWorker;
  job?: Queued;
}

/**
 * A bounded pool of worker processes for work on untrusted files (thumbnails, text layers, searchable PDFs), so that
 * none of it runs in the process that answers requests: a decoder that aborts its process (V8 aborts on some
 * allocations past its heap limit rather than failing them; a native library may crash) fails one job, never the
 * service. It knows job kinds, not libraries.
 *
 * - `size` workers run one job each; the others wait in one FIFO queue, bounded in length (`maxQueued`) and in
 *   time (`maxWaitMs` per job): past either, {@link PoolBusy}.
 * - Lanes: at most one job per lane runs at a time (a later one waits, `maxQueuedPerLane` at most), so one
 *   document's renders never take every worker.
 * - Limits per job: wall-clock `timeoutMs` (the worker is killed), a V8 heap limit and a cap on native memory per
 *   worker (`memoryMb` each). A worker that was stopped (timeout, heap, crash), or holds more than
 *   `recycleAboveBytes` off its heap after a job, is replaced.
 * - A job that fails for its file's sake (refused, corrupt, timed out, out of memory) is a {@link FileFault};
 *   with a `fileKey`, the failure is remembered (a bounded set) and every later job on that file, queued or new,
 *   fails at once with the same reason instead of being run again.
 *
 * Idle workers do not keep the process alive; {@link close} stops them (tests, shutdown).
 */
export class ImagingPool {
  private readonly options: Omit<Required<ImagingPoolOptions>, 'workerUrl'> & { workerUrl?: URL };
  private readonly slots: Slot[];
  private readonly queue: Queued[] = [];
  private readonly busyLanes = new Set<string>();
  /** fileKey -> its failure, in order of refusal (a Map iterates in insertion order). */
  private readonly failures = new Map<string, FileFault>();
  private nextId = 1;
  /** Counts closes, so that a job failing because of one does not start a replacement worker. */
  private generation = 0;

  constructor(options: ImagingPoolOptions = {}) {
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    this.options = { ...DEFAULTS, ...given };
    if (!(Number.isInteger(this.options.size) && this.options.size >= 1)) throw new Error('ImagingPool size must be an integer of at least 1');
    this.slots = Array.from({ length: this.options.size }, () => ({}));
    if (this.options.prestart) for (const slot of this.slots) slot.running = this.start();
  }

  /** Runs one job on a worker; rejects with {@link FileFault}, {@link PoolBusy} or {@link WorkerStartError}. */
  run<K extends ImagingJobKind>(kind: K, input: ImagingJobs[K]['input'], options: JobOptions): Promise<ImagingJobs[K]['output']> {
    const remembered = options.fileKey === undefined ? undefined : this.failures.get(options.fileKey);
    if (remembered !== undefined) return Promise.reject(new FileFault(remembered.kind, remembered.reason, true));
    const inLane = options.lane === undefined ? 0 : this.queue.filter((job) => job.options.lane === options.lane).length;
    if (this.queue.length >= this.options.maxQueued || inLane >= this.options.maxQueuedPerLane) {
      return Promise.reject(new PoolBusy(retryAfter(options)));
    }
    return new Promise((resolve, reject) => {
      const job: Queued = {
        kind,
        input,
        options,
        resolve: resolve as (output: unknown) => void,
        reject,
        waitTimer: setTimeout(() => {
          this.dequeue(job);
          reject(new PoolBusy(retryAfter(options)));
        }, options.maxWaitMs),
      };
      this.queue.push(job);
      this.pump();
    });
  }

  /** Jobs running and waiting now. */
  get load(): { running: number; queued: number } {
    return { running: this.slots.filter((slot) => slot.job).length, queued: this.queue.length };
  }

  /** Stops every worker; jobs still waiting are refused. A later job starts new workers. */
  async close(): Promise<void> {
    this.generation++; // jobs stopped by the close start no replacement
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.waitTimer);
      job.reject(new PoolBusy(retryAfter(job.options)));
    }
    await Promise.all(this.slots.map((slot) => this.retire(slot)));
  }

  private dequeue(job: Queued): void {
    const at = this.queue.indexOf(job);
    if (at >= 0) this.queue.splice(at, 1);
  }

  /** Starts waiting jobs on free workers, first come first served among the lanes that are free. */
  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.queue.find((queued) => queued.options.lane === undefined || !this.busyLanes.has(queued.options.lane));
      if (!job) return;
      this.dequeue(job);
      clearTimeout(job.waitTimer);
      slot.job = job;
      if (job.options.lane !== undefined) this.busyLanes.add(job.options.lane);
      void this.execute(slot, job);
    }
  }

  private async execute(slot: Slot, job: Queued): Promise<void> {
    try {
      job.resolve(await this.attempt(slot, job));
    } catch (error) {
      if (error instanceof FileFault) this.remember(job.options.fileKey, error);
      job.reject(error as Error);
    } finally {
      slot.job = undefined;
      if (job.options.lane !== undefined) this.busyLanes.delete(job.options.lane);
      this.pump();
    }
  }

  private async attempt(slot: Slot, job: Queued): Promise<unknown> {
    const generation = this.generation;
    const running = (slot.running ??= this.start());
    const { worker } = running;
    // A worker with a job keeps the process alive (a script awaiting it must not exit); an idle one does not.
    hold(worker, true);
    try {
      await running.ready;
      const response = await this.exchange(worker, job);
      if (response.externalBytes > this.options.recycleAboveBytes) await this.retire(slot);
      // A refusal the worker answered itself leaves it sound (the engine is JavaScript; what the job held is
      // garbage): it takes the next job, which spares a start (seconds: pdf.js is 2 MB of code to compile).
      if (!response.ok) throw new FileFault('refused', response.reason);
      return withPlainBytes(response.output);
    } catch (error) {
      // A job stopped from outside (timeout, out of heap, crash) or a worker that never started: the next job
      // gets a new worker.
      if (!(error instanceof FileFault && error.kind === 'refused')) {
        await this.retire(slot);
        // A long-running process replaces the worker now, so that the next job does not wait for its start.
        if (this.options.prestart && generation === this.generation) slot.running ??= this.start();
      }
      throw error;
    } finally {
      hold(worker, false);
    }
  }

  private exchange(worker: ChildProcess, job: Queued): Promise<WorkerResponse> {
    const id = this.nextId++;
    const { timeoutMs } = job.options;
    return new Promise<WorkerResponse>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      const onMessage = (message: WorkerResponse): void => {
        if (message.id !== id) return;
        cleanup();
        resolve(message);
      };
      const onError = (): void => {
        cleanup();
        reject(new FileFault('crashed', 'the decoder failed'));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        cleanup();
        // V8 aborts the process when its heap limit cannot be kept (SIGABRT, or 134 through a shell).
        const outOfMemory = signal === 'SIGABRT' || code === 134;
        reject(outOfMemory ? new FileFault('memory', 'processing it needs more memory than allowed') : new FileFault('crashed', 'the decoder stopped'));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new FileFault('timeout', `processing it took longer than ${timeoutMs} ms`));
      }, timeoutMs);
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      worker.send({ id, kind: job.kind, input: job.input } satisfies WorkerRequest, (error) => {
        if (error) onError();
      });
    });
  }

  private remember(fileKey: string | undefined, fault: FileFault): void {
    if (fileKey === undefined) return;
    this.failures.delete(fileKey);
    this.failures.set(fileKey, fault);
    while (this.failures.size > this.options.rememberedFailures) {
      const oldest = this.failures.keys().next().value as string;
      this.failures.delete(oldest);
    }
    // The same file's jobs still waiting would fail the same way.
    for (const waiting of this.queue.filter((job) => job.options.fileKey === fileKey)) {
      this.dequeue(waiting);
      clearTimeout(waiting.waitTimer);
      waiting.reject(new FileFault(fault.kind, fault.reason, true));
    }
  }

  private start(): RunningWorker {
    const entry = this.options.workerUrl ? [fileURLToPath(this.options.workerUrl)] : workerEntry();
    const worker = spawn(process.execPath, [`--max-old-space-size=${this.options.memoryMb}`, ...entry], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      env: { ...process.env, [WORKER_MEMORY_BYTES_ENV]: String(this.options.memoryMb * MiB) },
    });
    hold(worker, false);
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: WorkerReady | WorkerResponse): void => {
        if ('ready' in message) {
          worker.off('error', onError).off('exit', onExit).off('message', onMessage);
          resolve();
        }
      };
      const onError = (error: unknown): void => reject(new WorkerStartError(error));
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => reject(new WorkerStartError(`exit code ${code ?? signal}`));
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
    });
    ready.catch(() => undefined);
    return { worker, ready };
  }

  private async retire(slot: Slot): Promise<void> {
    const running = slot.running;
    slot.running = undefined;
    if (running) await stop(running.worker);
  }
}

/** Whether a worker keeps this process alive: through its process handle and its IPC channel both. */
const hold = (worker: ChildProcess, held: boolean): void => {
  if (held) {
    worker.ref();
    worker.channel?.ref();
  } else {
    worker.unref();
    worker.channel?.unref();
  }
};

/** Kills a worker and waits for it to be gone (held meanwhile: a caller awaiting the close must not see the process exit first). */
const stop = (worker: ChildProcess): Promise<void> =>
  worker.exitCode !== null || worker.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => {
        hold(worker, true);
        worker.once('exit', () => resolve());
        worker.kill('SIGKILL');
      });

const retryAfter = (options: JobOptions): number => Math.max(1, Math.ceil(options.maxWaitMs / 1000));
