import { describe, expect, it } from 'vitest';
import { PagePool, type PagePriority } from '../../../../shared/adapters/local/tesseract-page-pool';
import { runForTenant } from '../../../../shared/adapters/tenant-context';

/** A pool whose tasks finish when the test says so, recording the order in which they started. */
function harness(size: number) {
  const pool = new PagePool(size);
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const queue = (name: string, document: object, priority: PagePriority = 'normal', signal = new AbortController().signal, tenant?: string) =>
    (tenant === undefined ? <T>(work: () => T) => work() : <T>(work: () => T) => runForTenant(tenant, work))(() => pool.run(
      () =>
        new Promise<void>((resolve) => {
          started.push(name);
          finishers.set(name, resolve);
        }),
      signal,
      priority,
      document,
    ));
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Finishes a running task and lets the pool hand its slot on. */
  const finish = async (name: string): Promise<void> => {
    await settle();
    finishers.get(name)!();
    await settle();
  };
  return { queue, finish, started };
}

describe('PagePool', () => {
  it('runs no more tasks at once than its size', async () => {
    const { queue, started } = harness(2);
    const document = {};

    for (const name of ['a1', 'a2', 'a3']) void queue(name, document);
    await new Promise((resolve) => setImmediate(resolve));

    expect(started).toEqual(['a1', 'a2']);
  });

  it('lets documents take turns, so a one-page document does not wait for every page of a long one', async () => {
    const { queue, finish, started } = harness(1);
    const long = {};
    const short = {};
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5']) void queue(name, long);
    void queue('b1', short);

    for (const name of ['a1', 'a2', 'b1', 'a3', 'a4']) await finish(name);

    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4', 'a5']);
  });

  it('starts the queued tasks of a high-priority document before those of normal ones', async () => {
    const { queue, finish, started } = harness(1);
    const normal = {};
    const urgent = {};
    for (const name of ['n1', 'n2', 'n3']) void queue(name, normal);
    for (const name of ['h1', 'h2']) void queue(name, urgent, 'high');

    for (const name of ['n1', 'h1', 'h2', 'n2']) await finish(name);

    expect(started).toEqual(['n1', 'h1', 'h2', 'n2', 'n3']);
  });

  it('never starts a queued task whose signal was aborted', async () => {
    const { queue, finish, started } = harness(1);
    const document = {};
    const cancelled = new AbortController();
    void queue('a1', document);
    const dropped = queue('a2', document, 'normal', cancelled.signal);
    void queue('a3', document);

    cancelled.abort(new Error('the document failed'));
    await expect(dropped).rejects.toThrow('the document failed');
    await finish('a1');

    expect(started).toEqual(['a1', 'a3']);
  });

  it("lets tenants take turns before documents, so one tenant's many documents do not hold back another's page", async () => {
    const { queue, finish, started } = harness(1);
    const signal = new AbortController().signal;
    const [first, second, third] = [{}, {}, {}];
    void queue('a1', first, 'normal', signal, 'busy');
    void queue('a2', second, 'normal', signal, 'busy');
    void queue('a3', third, 'normal', signal, 'busy');
    void queue('a4', first, 'normal', signal, 'busy');
    void queue('b1', {}, 'normal', signal, 'quiet');

    for (const name of ['a1', 'a2', 'b1', 'a3']) await finish(name);

    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });
});
