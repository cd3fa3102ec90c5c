import { currentTenant } from '../tenant-context';

/** The slots of the Tesseract engine: one child process per core, shared by every document being read. */

export type PagePriority = 'normal' | 'high';

/** Per document of one tenant, its queued tasks; a Map keeps the documents' turn order. */
type TenantTurns = Map<object, (() => void)[]>;

/**
 * At most `size` tasks at once. High-priority tasks go before normal ones; within a priority the tenants take
 * turns, then the documents of a tenant: a free slot goes to the next tenant in a round (each tenant once, in
 * the order they first queued a task), and within that tenant to its next document in its own round. So a
 * one-page scan waits for at most one page of each other tenant ahead of it, not for all of a tenant's pages
 * or documents. The tenant is the one the queue poller runs the job for (tenant-context.ts), one for all
 * outside a poller. Within a document tasks run in the order they were queued. A task whose signal is aborted
 * while queued never starts.
 */
export class PagePool {
  private running = 0;
  /** Per priority, the tenants with queued tasks in turn order, each with its documents in turn order. */
  private readonly turns: Record<PagePriority, Map<string | undefined, TenantTurns>> = { high: new Map(), normal: new Map() };

  constructor(private readonly size: number) {}

  /**
   * Runs `task` in a slot. `document` is any object standing for the document the task belongs to (its turn in
   * its tenant's round); tasks of one document share one.
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
    const tenant = currentTenant();
    const tenants = this.turns[priority];
    return new Promise<void>((resolve, reject) => {
      const start = (): void => {
        signal.removeEventListener('abort', onAbort);
        this.running++;
        resolve();
      };
      const onAbort = (): void => {
        const documents = tenants.get(tenant);
        const queued = documents?.get(document);
        const at = queued?.indexOf(start) ?? -1;
        if (at >= 0) queued!.splice(at, 1);
        if (queued?.length === 0) documents!.delete(document);
        if (documents?.size === 0) tenants.delete(tenant);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      let documents = tenants.get(tenant);
      if (!documents) tenants.set(tenant, (documents = new Map()));
      const queued = documents.get(document);
      if (queued) queued.push(start);
      else documents.set(document, [start]);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): void {
    this.running--;
    const tenants = this.turns.high.size > 0 ? this.turns.high : this.turns.normal;
    const nextTenant = tenants.entries().next();
    if (nextTenant.done) return;
    const [tenant, documents] = nextTenant.value;
    const [document, queued] = documents.entries().next().value!;
    const start = queued.shift()!;
    // The document goes to the back of its tenant's round and the tenant to the back of the round, or each
    // leaves its round when it has nothing more queued.
    documents.delete(document);
    if (queued.length > 0) documents.set(document, queued);
    tenants.delete(tenant);
    if (documents.size > 0) tenants.set(tenant, documents);
    start();
  }
}
