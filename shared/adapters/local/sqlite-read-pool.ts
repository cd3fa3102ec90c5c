import { Worker } from 'node:worker_threads';

type SqlValue = string | number | null;

/** A reader that takes longer is taken for stuck: the pool gives up on its threads and the caller falls back. */
const ANSWER_TIMEOUT_MS = 10_000;

interface Answer {
  rows: unknown[];
  sequences?: Uint32Array;
}

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

/**
 * Read-only connections to one SQLite file, each in its own worker thread, so that the shards of a query run
 * on several cores at once (better-sqlite3 is synchronous: one connection, one core). The file must be in WAL
 * mode, where readers never wait for the writer; they see the last committed state.
 */
export class SqliteReadPool {
  private readonly workers: { worker: Worker; pending: Map<number, Pending> }[];
  private nextId = 0;
  private broken: Error | null = null;

  constructor(path: string, size: number) {
    this.workers = Array.from({ length: size }, () => {
      const worker = new Worker(new URL('./sqlite-read-worker.mjs', import.meta.url), { workerData: { path } });
      const pending = new Map<number, Pending>();
      worker.on('message', (message: { id: number; rows?: unknown[]; sequences?: Uint32Array; error?: string }) => {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiter?.reject(new Error(message.error));
        else waiter?.resolve({ rows: message.rows ?? [], ...(message.sequences ? { sequences: message.sequences } : {}) });
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => this.fail(new Error(`search reader exited with code ${code}`)));
      // An idle pool never keeps a process alive; a busy one does (see track).
      worker.unref();
      return { worker, pending };
    });
  }

  get size(): number {
    return this.workers.length;
  }

  /** Whether the pool can still answer (a worker that died takes the pool down with it). */
  get usable(): boolean {
    return this.broken === null;
  }

  /** Runs one statement per worker, in parallel: `queries[i]` on worker `i`. */
  async allOnEach<Row>(queries: { sql: string; params: SqlValue[] }[]): Promise<Row[][]> {
    return (await this.send(queries)).map((answer) => answer.rows as Row[]);
  }

  /**
   * Runs one statement of (rowid, score) per worker, in parallel: each answers its `limit` best rows and all
   * its row ids less `base` (see sqlite-read-worker.mjs).
   */
  async rankOnEach(
    queries: { sql: string; params: SqlValue[] }[],
    rank: { base: number; limit: number },
  ): Promise<{ rows: { rid: number; score: number }[]; sequences: Uint32Array }[]> {
    return (await this.send(queries, rank)).map((answer) => ({ rows: answer.rows as { rid: number; score: number }[], sequences: answer.sequences ?? new Uint32Array(0) }));
  }

  private async send(queries: { sql: string; params: SqlValue[] }[], rank?: { base: number; limit: number }): Promise<Answer[]> {
    if (this.broken) throw this.broken;
    return Promise.all(
      queries.map(
        (query, i) =>
          new Promise<Answer>((resolve, reject) => {
            const { worker, pending } = this.workers[i % this.workers.length]!;
            const id = this.nextId++;
            const timer = setTimeout(() => this.fail(new Error(`search reader did not answer within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
            timer.unref();
            const settle = () => {
              clearTimeout(timer);
              this.track(worker, pending);
            };
            pending.set(id, {
              resolve: (answer) => {
                settle();
                resolve(answer);
              },
              reject: (error) => {
                settle();
                reject(error);
              },
            });
            this.track(worker, pending);
            worker.postMessage({ id, sql: query.sql, params: query.params, ...(rank ? { rank } : {}) });
          }),
      ),
    );
  }

  /** Holds the process open while a worker has questions pending, and only then. */
  private track(worker: Worker, pending: Map<number, Pending>): void {
    if (pending.size) worker.ref();
    else worker.unref();
  }

  async close(): Promise<void> {
    this.broken ??= new Error('search reader pool closed');
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }

  private fail(error: Error): void {
    if (!this.broken) {
      this.broken = error;
      for (const { worker } of this.workers) void worker.terminate();
    }
    for (const { pending } of this.workers) {
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    }
  }
}
