import { describe, expect, it } from 'vitest';
import { batchScope, limiter, READ_CONCURRENCY, type FollowedWorkspace } from '../../../../shared/domain/search/batch-scope';
import type { IndexedDocument } from '../../../../shared/domain/search/ports';
import type { Label } from '../../../../shared/domain/labels/label';
import { aDocumentRecord } from '../../../support/builders';

/** A promise the test settles itself. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every settled promise's continuations run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A workspace's sources whose reads wait for `gate` (counting those in flight) and whose index records its writes. */
function sources(gate: Promise<void> = Promise.resolve()) {
  const flight = { now: 0, most: 0 };
  const labelReads: string[] = [];
  const writes: string[] = [];
  const reading = async <T>(value: T): Promise<T> => {
    flight.now++;
    flight.most = Math.max(flight.most, flight.now);
    await gate;
    flight.now--;
    return value;
  };
  const workspace: FollowedWorkspace = {
    documents: {
      get: (id) => reading(aDocumentRecord({ id })),
      getContent: () => reading({ text: '' }),
      list: () => reading({ data: [], pagination: { page: 1, per_page: 100, total: 0, total_pages: 0 } } as never),
    },
    labels: {
      get: (id) => {
        labelReads.push(id);
        return reading({ id, name: `name of ${id}` } as Label);
      },
    },
    files: { get: () => reading(null) },
    index: {
      upsert: (document: IndexedDocument) => {
        writes.push(`upsert ${document.id}`);
        return Promise.resolve();
      },
      remove: (id) => {
        writes.push(`remove ${id}`);
        return Promise.resolve();
      },
      search: () => Promise.reject(new Error('not searched here')),
    },
  };
  return { workspace, flight, labelReads, writes };
}

const anIndexedDocument = (id: string) => ({ id }) as IndexedDocument;

describe('a limiter', () => {
  it('runs at most its number of tasks at once and every task in the end', async () => {
    // Arrange
    const run = limiter(2);
    const gates = Array.from({ length: 5 }, () => deferred());
    let running = 0;
    let most = 0;
    const tasks = gates.map((gate) =>
      run(async () => {
        running++;
        most = Math.max(most, running);
        await gate.promise;
        running--;
      }),
    );

    // Act
    for (const gate of gates) {
      await settle();
      gate.resolve();
    }
    await Promise.all(tasks);

    // Assert
    expect({ most, running }).toEqual({ most: 2, running: 0 });
  });

  it('gives the slot of a failed task to the next one', async () => {
    // Arrange
    const run = limiter(1);

    // Act
    const failed = run(() => Promise.reject(new Error('read failed')));
    const next = run(() => Promise.resolve('read'));

    // Assert
    await expect(failed).rejects.toThrow('read failed');
    await expect(next).resolves.toBe('read');
  });
});

describe("a batch's view of the indexer's sources", () => {
  it('keeps at most READ_CONCURRENCY reads in flight across the whole batch', async () => {
    // Arrange
    const gate = deferred();
    const { workspace, flight } = sources(gate.promise);
    const batch = batchScope({ inWorkspace: () => workspace });
    const view = batch.inWorkspace('ws-1');

    // Act
    const reads = Array.from({ length: 3 * READ_CONCURRENCY }, (_, i) => (i % 2 ? view.documents.get(`d${i}`) : view.documents.getContent(`d${i}`)));
    await settle();
    const inFlight = flight.now;
    gate.resolve();
    await Promise.all(reads);

    // Assert
    expect({ inFlight, most: flight.most }).toEqual({ inFlight: READ_CONCURRENCY, most: READ_CONCURRENCY });
  });

  it("reads a label's name once in a batch, however many documents carry it", async () => {
    // Arrange
    const { workspace, labelReads } = sources();
    const view = batchScope({ inWorkspace: () => workspace }).inWorkspace('ws-1');

    // Act
    const names = await Promise.all([view.labels.get('l1'), view.labels.get('l1'), view.labels.get('l2')]);

    // Assert
    expect(names.map((label) => label?.name)).toEqual(['name of l1', 'name of l1', 'name of l2']);
    expect(labelReads).toEqual(['l1', 'l2']);
  });

  it("reads a label's name again in the next batch", async () => {
    // Arrange
    const { workspace, labelReads } = sources();

    // Act
    await batchScope({ inWorkspace: () => workspace }).inWorkspace('ws-1').labels.get('l1');
    await batchScope({ inWorkspace: () => workspace }).inWorkspace('ws-1').labels.get('l1');

    // Assert
    expect(labelReads).toEqual(['l1', 'l1']);
  });

  it('writes nothing for a workspace whose deletion was requested', async () => {
    // Arrange
    const { workspace, writes } = sources();
    const view = batchScope({ inWorkspace: () => workspace, erased: () => Promise.resolve(true) }).inWorkspace('ws-1');

    // Act
    await view.index.upsert(anIndexedDocument('d1'));
    await view.index.remove('d2', 1);

    // Assert
    expect(writes).toEqual([]);
  });

  it("holds a workspace's writes until its erasure is read, and reads it once per batch", async () => {
    // Arrange
    const erasure = deferred<boolean>();
    const asked: string[] = [];
    const { workspace, writes } = sources();
    const batch = batchScope({
      inWorkspace: () => workspace,
      erased: (id) => {
        asked.push(id);
        return erasure.promise;
      },
    });
    const view = batch.inWorkspace('ws-1');

    // Act
    const upserts = [view.index.upsert(anIndexedDocument('d1')), view.index.upsert(anIndexedDocument('d2'))];
    await settle();
    const beforeErasureRead = [...writes];
    erasure.resolve(false);
    await Promise.all(upserts);

    // Assert
    expect({ beforeErasureRead, writes, asked }).toEqual({ beforeErasureRead: [], writes: ['upsert d1', 'upsert d2'], asked: ['ws-1'] });
  });

  it('fails the writes of a workspace whose erasure could not be read', async () => {
    // Arrange
    const { workspace, writes } = sources();
    const view = batchScope({ inWorkspace: () => workspace, erased: () => Promise.reject(new Error('table unavailable')) }).inWorkspace('ws-1');

    // Act
    const upsert = view.index.upsert(anIndexedDocument('d1'));

    // Assert
    await expect(upsert).rejects.toThrow('table unavailable');
    expect(writes).toEqual([]);
  });
});
