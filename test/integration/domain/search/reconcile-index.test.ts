import { afterEach, describe, expect, it } from 'vitest';
import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import { S3FileStore } from '../../../../shared/adapters/aws/s3/file-store';
import { indexSources } from '../../../../shared/container/kit/workspace-stores';
import type { SearchIndex } from '../../../../shared/domain/search/ports';
import { reconcileSearchIndex, type ReconcileDeps } from '../../../../shared/domain/search/reconcile-index';
import { createDocumentIndexer, toIndexedDocument } from '../../../../shared/domain/search/document-indexer';
import { createReconcileHandler } from '../../../../functions/indexer/reconcile';
import { isReconcileEvent } from '../../../../shared/manifest';
import { reconcileDepsOf } from '../../../../functions/indexer/deps';
import type { Logger } from '../../../../shared/observability/logger';
import { aDocumentRecord, aSearchRequest } from '../../../support/builders';
import { testClients } from '../../../support/aws-resources';
import { testKit } from '../../../support/test-kit';

const stores: SqliteSearchIndex[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

/** Differences are judged at once: nothing else writes in these tests. */
const NOW = { settleMs: 0 };

/**
 * What indexing reads (the kit's `indexSources`) over a fresh DynamoDB Local table and an in-memory SQLite index,
 * the reconciliation's deps as the indexer function builds them, and the index writes each workspace's view received during the run.
 */
async function setUp() {
  const store = new SqliteSearchIndex(':memory:');
  stores.push(store);
  const kit = await testKit();
  // Long texts only are read from the bucket: these documents have none.
  const c = indexSources(kit.table, kit.clock, kit.gate, new S3FileStore(testClients().s3, 'unused-bucket'), store);
  const writes: { workspaceId: string; call: 'upsert' | 'remove'; id: string }[] = [];
  const recorded = (workspaceId: string, view: SearchIndex): SearchIndex => ({
    ...view,
    upsert: (document) => (writes.push({ workspaceId, call: 'upsert', id: document.id }), view.upsert(document)),
    remove: (id, version) => (writes.push({ workspaceId, call: 'remove', id }), view.remove(id, version)),
  });
  const base = reconcileDepsOf(c, store);
  const deps: ReconcileDeps = { ...base, inWorkspace: (ws) => ({ ...base.inWorkspace(ws), index: recorded(ws, base.inWorkspace(ws).index) }) };
  return { c, store, deps, writes };
}

/** A workspace with `count` documents, each in the table and (unless `indexed` is false) in the index. */
async function aWorkspace(c: ReturnType<typeof indexSources>, count: number, options: { indexed?: boolean } = {}) {
  const workspaceId = crypto.randomUUID();
  await c.workspaces.create({ id: workspaceId, name: `ws ${workspaceId}`, created_at: new Date().toISOString() });
  const scoped = c.forWorkspace(workspaceId);
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const record = aDocumentRecord({ title: `Invoice ${n}` });
    await scoped.documents.create(record);
    if (options.indexed !== false) await createDocumentIndexer({ ...scoped, index: scoped.searchIndex }).reindex(record.id);
    ids.push(record.id);
  }
  return { workspaceId, scoped, ids };
}

describe('reconciling the search index with the table', () => {
  it('adds a document the index is missing', async () => {
    // Arrange
    const { c, store, deps } = await setUp();
    const { workspaceId, ids } = await aWorkspace(c, 3);
    const unindexed = (await addUnindexed(c, workspaceId)).id;

    // Act
    const report = await reconcileSearchIndex(deps, NOW);

    // Assert
    expect(report).toMatchObject({ missing: 1, stale: 0, extra: 0, repaired: 1, unrepaired: 0, documents_checked: 4 });
    expect((await store.listingOf(workspaceId).entriesOf([unindexed, ...ids])).map((entry) => entry.id).sort()).toEqual([unindexed, ...ids].sort());
  });

  it('replaces a stale version with the current one', async () => {
    // Arrange
    const { c, store, deps } = await setUp();
    const { workspaceId, scoped, ids } = await aWorkspace(c, 2);
    await scoped.documents.update(ids[0]!, { title: 'Renamed receipt' }, new Date().toISOString());

    // Act
    const report = await reconcileSearchIndex(deps, NOW);

    // Assert
    expect(report).toMatchObject({ missing: 0, stale: 1, extra: 0, repaired: 1 });
    expect(await store.listingOf(workspaceId).entriesOf([ids[0]!])).toEqual([{ id: ids[0], version: 2 }]);
    const found = await store.forWorkspace(workspaceId).search(aSearchRequest({ query: { kind: 'term', field: 'title', value: 'receipt' } }));
    expect(found.results.map((hit) => hit.document_id)).toEqual([ids[0]]);
  });

  it('removes an entry whose document is gone from the table', async () => {
    // Arrange
    const { c, store, deps } = await setUp();
    const { workspaceId, scoped, ids } = await aWorkspace(c, 2);
    await scoped.documents.delete(ids[1]!);

    // Act
    const report = await reconcileSearchIndex(deps, NOW);

    // Assert
    expect(report).toMatchObject({ missing: 0, stale: 0, extra: 1, repaired: 1, index_entries: 2 });
    expect(await store.listingOf(workspaceId).entriesOf(ids)).toEqual([{ id: ids[0], version: 1 }]);
  });

  it("leaves another workspace's documents and entries alone", async () => {
    // Arrange
    const { c, store, deps, writes } = await setUp();
    const drifting = await aWorkspace(c, 1);
    await drifting.scoped.documents.delete(drifting.ids[0]!);
    const other = await aWorkspace(c, 2);

    // Act
    const report = await reconcileSearchIndex(deps, NOW);

    // Assert
    expect(report.drifted.map((workspace) => workspace.workspace_id)).toEqual([drifting.workspaceId]);
    expect(writes.every((write) => write.workspaceId === drifting.workspaceId)).toBe(true);
    expect((await store.listingOf(other.workspaceId).entriesOf(other.ids)).length).toBe(2);
  });

  it('reports no drift and writes nothing when the index matches the table', async () => {
    // Arrange
    const { c, deps, writes } = await setUp();
    await aWorkspace(c, 3);
    await aWorkspace(c, 2);

    // Act
    const report = await reconcileSearchIndex(deps, { ...NOW, chunkSize: 2 });

    // Assert
    expect(report).toMatchObject({ workspaces: 2, documents_checked: 5, index_entries: 5, missing: 0, stale: 0, extra: 0, in_flight: 0, repaired: 0, drifted: [] });
    expect(writes).toEqual([]);
  });

  it('counts the drift and repairs nothing when asked to check only', async () => {
    // Arrange
    const { c, store, deps, writes } = await setUp();
    const { workspaceId, scoped, ids } = await aWorkspace(c, 2);
    const missing = await addUnindexed(c, workspaceId);
    await scoped.documents.update(ids[0]!, { title: 'Edited' }, new Date().toISOString());
    await scoped.documents.delete(ids[1]!);

    // Act
    const report = await reconcileSearchIndex(deps, { ...NOW, checkOnly: true });

    // Assert
    expect(report).toMatchObject({ check_only: true, missing: 1, stale: 1, extra: 1, repaired: 0 });
    expect(writes).toEqual([]);
    expect(await store.listingOf(workspaceId).entriesOf([missing.id, ...ids])).toEqual([
      { id: ids[0], version: 1 },
      { id: ids[1], version: 1 },
    ]);
  });

  it('counts a difference the stream consumer repairs before it is read again as in flight, not drift', async () => {
    // Arrange
    const { c, deps } = await setUp();
    const { workspaceId } = await aWorkspace(c, 1);
    const late = await addUnindexed(c, workspaceId);
    let clock = 0;
    // The pause before the re-read is when the consumer, a moment behind the table, indexes the document.
    const consumerCatchesUp = async (ms: number) => {
      const scoped = c.forWorkspace(workspaceId);
      await scoped.searchIndex.upsert(await toIndexedDocument({ ...scoped, index: scoped.searchIndex }, late));
      clock += ms;
    };

    // Act
    const report = await reconcileSearchIndex(deps, { settleMs: 1_000, now: () => clock, delay: consumerCatchesUp });

    // Assert
    expect(report).toMatchObject({ missing: 0, in_flight: 1, repaired: 0, drifted: [] });
  });

  it('repairs drift spread over many pages of the table and of the index', async () => {
    // Arrange
    const { c, store, deps } = await setUp();
    const { workspaceId, scoped, ids } = await aWorkspace(c, 6);
    const missing = [await addUnindexed(c, workspaceId), await addUnindexed(c, workspaceId), await addUnindexed(c, workspaceId)];
    for (const id of ids.slice(0, 3)) await scoped.documents.delete(id);

    // Act
    const report = await reconcileSearchIndex(deps, { ...NOW, chunkSize: 2 });

    // Assert
    expect(report).toMatchObject({ documents_checked: 6, missing: 3, extra: 3, repaired: 6, unrepaired: 0 });
    const live = await store.listingOf(workspaceId).entriesOf([...ids, ...missing.map((record) => record.id)]);
    expect(live.map((entry) => entry.id).sort()).toEqual([...ids.slice(3), ...missing.map((record) => record.id)].sort());
  });

  it('counts a document changed during the check as in flight, and still brings the index up to it', async () => {
    // Arrange
    const { c, store, deps } = await setUp();
    const { workspaceId, scoped, ids } = await aWorkspace(c, 1);
    await scoped.documents.update(ids[0]!, { title: 'Second' }, new Date().toISOString());
    let clock = 0;
    // The pause before the re-read is when someone edits the document again.
    const editedMeanwhile = async (ms: number) => {
      await scoped.documents.update(ids[0]!, { title: 'Third' }, new Date().toISOString());
      clock += ms;
    };

    // Act
    const report = await reconcileSearchIndex(deps, { settleMs: 1_000, now: () => clock, delay: editedMeanwhile });

    // Assert
    expect(report).toMatchObject({ stale: 0, in_flight: 1, repaired: 1, drifted: [] });
    expect(await store.listingOf(workspaceId).entriesOf(ids)).toEqual([{ id: ids[0], version: 3 }]);
  });
});

describe('the scheduled reconciliation of the indexer function', () => {
  /** A logger that keeps what it is given. */
  const recordingLogger = () => {
    const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
    const at = (level: string) => (message: string, fields: Record<string, unknown> = {}) => void lines.push({ level, message, fields });
    const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    return { logger, lines };
  };

  it('logs a warning with the counts of each workspace where it found drift', async () => {
    // Arrange
    const { c, deps } = await setUp();
    const { workspaceId } = await aWorkspace(c, 1);
    await addUnindexed(c, workspaceId);
    const { logger, lines } = recordingLogger();
    const handler = createReconcileHandler(deps, NOW, logger);

    // Act
    await handler({ reconcile: true });

    // Assert
    expect(lines).toContainEqual({
      level: 'warn',
      message: 'indexer: search index drift',
      fields: expect.objectContaining({ workspace_id: workspaceId, missing: 1, stale: 0, extra: 0, repaired: 1, check_only: false }),
    });
  });

  it('checks without repairing when the scheduled event says check_only', async () => {
    // Arrange
    const { c, deps, writes } = await setUp();
    const { workspaceId } = await aWorkspace(c, 1);
    await addUnindexed(c, workspaceId);
    const handler = createReconcileHandler(deps, NOW, recordingLogger().logger);

    // Act
    const report = await handler({ reconcile: true, check_only: true });

    // Assert
    expect(report).toMatchObject({ check_only: true, missing: 1, repaired: 0 });
    expect(writes).toEqual([]);
  });

  it('checks only the workspaces the scheduled event names', async () => {
    // Arrange
    const { c, deps, writes } = await setUp();
    const named = await aWorkspace(c, 1);
    await addUnindexed(c, named.workspaceId);
    const other = await aWorkspace(c, 1);
    await addUnindexed(c, other.workspaceId);
    const handler = createReconcileHandler(deps, NOW, recordingLogger().logger);

    // Act
    const report = await handler({ reconcile: true, workspace_ids: [named.workspaceId] });

    // Assert
    expect(report).toMatchObject({ workspaces: 1, missing: 1, repaired: 1 });
    expect(writes.map((write) => write.workspaceId)).toEqual([named.workspaceId]);
  });

  it('tells its scheduled event from a batch of the stream', () => {
    // Arrange
    const scheduled = { reconcile: true };
    const batch = { Records: [] };

    // Act
    const verdicts = [isReconcileEvent(scheduled), isReconcileEvent(batch)];

    // Assert
    expect(verdicts).toEqual([true, false]);
  });
});

/** A document written to the table only (its change never reached the index). */
async function addUnindexed(c: ReturnType<typeof indexSources>, workspaceId: string) {
  const record = { ...aDocumentRecord({ title: 'Late arrival' }), version: 1 };
  await c.forWorkspace(workspaceId).documents.create(record);
  return record;
}
