import { Worker } from 'node:worker_threads';

/** Argon2id's cost: memory in KiB (`m`), passes (`t`) and lanes (`p`), as the PHC string names them. */
export interface Argon2idParams {
  m: number;
  t: number;
  p: number;
}

interface Task {
  password: string;
  salt: Buffer;
  params: Argon2idParams;
  length: number;
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  task: Task | null;
}

type Answer = { key: Uint8Array } | { error: string };

/** Where the thread script is and what it is started with; read once, at the first key (a cold start that hashes nothing never loads it). */
let threadScript: Promise<{ url: URL; workerData: string }> | undefined;
const loadThreadScript = () =>
  (threadScript ??= import('./argon2id-thread.mjs').then(({ argon2idThreadUrl, ARGON2ID_THREAD }) => ({ url: new URL(argon2idThreadUrl), workerData: ARGON2ID_THREAD })));

/**
 * Argon2id keys computed on up to `size` worker threads (argon2id-thread.mjs), one key at a time each, the others
 * waiting their turn, first come first served: the computation is WebAssembly, which holds the thread it runs on
 * for its whole length. Threads start when a key finds none free and hold the process open only while they
 * compute; one that fails or exits fails its key and is replaced at the next.
 */
export class Argon2idThreads {
  private readonly threads: Thread[] = [];
  private readonly waiting: Task[] = [];

  constructor(private readonly size: number) {}

  async derive(password: string, salt: Buffer, params: Argon2idParams, length: number): Promise<Buffer> {
    const script = await loadThreadScript();
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.push({ password, salt, params, length, resolve, reject });
      this.dispatch(script);
    });
  }

  private dispatch(script: { url: URL; workerData: string }): void {
    while (this.waiting.length) {
      const thread = this.threads.find((candidate) => candidate.task === null) ?? (this.threads.length < this.size ? this.start(script) : undefined);
      if (!thread) return;
      this.run(thread, this.waiting.shift()!);
    }
  }

  private start(script: { url: URL; workerData: string }): Thread {
    // Plain JavaScript: none of the process's own flags (a TypeScript loader, `--eval`'s) is the thread's concern.
    const worker = new Worker(script.url, { workerData: script.workerData, execArgv: [] });
    const thread: Thread = { worker, task: null };
    this.threads.push(thread);
    worker.on('message', (answer: Answer) => {
      const task = thread.task;
      thread.task = null;
      worker.unref();
      if ('key' in answer) task?.resolve(Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.byteLength));
      else task?.reject(new Error(`Argon2id failed: ${answer.error}`));
      this.dispatch(script);
    });
    const lost = (error: Error) => {
      const index = this.threads.indexOf(thread);
      if (index < 0) return;
      this.threads.splice(index, 1);
      thread.task?.reject(error);
      thread.task = null;
      this.dispatch(script);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the Argon2id thread exited with code ${code}`)));
    return thread;
  }

  private run(thread: Thread, task: Task): void {
    thread.task = task;
    // A key being computed holds the process open: a command that hashes and exits waits for it.
    thread.worker.ref();
    const { password, salt, params, length } = task;
    thread.worker.postMessage({ password, salt, params, length });
  }
}
