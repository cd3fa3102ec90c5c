/** The slots of the Tesseract engine: one child process per core, shared by every document being read. */

export type PagePriority = 'normal' | 'high';

/**
 * At most `size` tasks at once. High-priority tasks go before normal ones; within a priority the documents take
 * turns: a free slot goes to the next document in a round (each document once, in the order they first queued
 * a task), so a one-page scan waits for at most one page of each document ahead of it, not for all of a long
 * document's pages. Within a document tasks run in the order they were queued. A task whose signal is aborted
 * while queued never starts.
 */
export class PagePool {
  private running = 0;
  /** Per priority, the documents with queued tasks in turn order (a Map keeps insertion order). */
  private readonly turns: Record<PagePriority, Map<object, (() => void)[]>> = { high: new Map(), normal: new Map() };

  constructor(private readonly size: number) {}

  /**
   * Runs `task` in a slot. `document` is any object standing for the document the task belongs to (its turn in
   * the round); tasks of one document share one.
   */
  async run<T>(task: () => Promise<T>, signal: AbortSignal, priority: PagePriority = 'normal', document: object = {}): Promise<T> {
    await this.acquire(signal, priority, document);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal, priority: PagePriority, document: object): Promise<void> {
    signal.throwIfAborted();
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve();
    }
    const turns = this.turns[priority];
    return new Promise<void>((resolve, reject) => {
      const start = (): void => {
        signal.removeEventListener('abort', onAbort);
        this.running++;
        resolve();
      };
      const onAbort = (): void => {
        const queued = turns.get(document);
        const at = queued?.indexOf(start) ?? -1;
        if (at >= 0) queued!.splice(at, 1);
        if (queued?.length === 0) turns.delete(document);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const queued = turns.get(document);
      if (queued) queued.push(start);
      else turns.set(document, [start]);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): void {
    this.running--;
    const turns = this.turns.high.size > 0 ? this.turns.high : this.turns.normal;
    const next = turns.entries().next();
    if (next.done) return;
    const [document, queued] = next.value;
    const start = queued.shift()!;
    // The document goes to the back of the round, or leaves it when it has nothing more queued.
    turns.delete(document);
    if (queued.length > 0) turns.set(document, queued);
    start();
  }
}
