import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStreamPoller, type StreamPoller } from '../../shared/local/event-sources/dynamodb-stream-poller';
import { DynamoDocumentRepository } from '../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { ensureBucket } from '../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { SqliteSearchIndex, type SqliteWorkspaceSearchIndex } from '../../shared/adapters/local/sqlite-search-index';
import type { Principal } from '../../shared/domain/principal';
import { systemClock } from '../../shared/domain/clock';
import { deleteDocument } from '../../shared/domain/documents/delete-document';
import { updateDocument } from '../../shared/domain/documents/update-document';
import { assignLabel } from '../../shared/domain/labels/assign-label';
import { deleteLabel } from '../../shared/domain/labels/delete-label';
import { updateLabel } from '../../shared/domain/labels/update-label';
import { createLabel } from '../../shared/domain/labels/create-label';
import { createDocumentIndexer } from '../../shared/domain/search/document-indexer';
import { createIndexerHandler } from '../../functions/indexer/handler';
import { freshAppStreamTable } from '../support/app-stream-table';
import { testClients, uniqueName } from '../support/aws-resources';
import { eventually } from '../support/until';
import { aDocumentRecord, aSearchRequest } from '../support/builders';
import { hold } from '../support/dynamo-faults';

/** The workspace these repositories serve. */
const WORKSPACE_ID = crypto.randomUUID();

/** How many times each race is run: an interleaving that loses shows up within a few rounds. */
const ROUNDS = 10;

const editor: Principal = {
  userId: 'u',
  username: 'editor',
  email: 'editor@example.com',
  role: 'editor',
  workspaceId: 'w',
  jti: 'j',
  tokenExpiresAt: new Date(Date.now() + 3_600_000),
};

/**
 * The label use cases against DynamoDB Local and the SQLite index, raced against each other and against
 * document edits, with the index following the table's stream through the `indexer` consumer. Once the index
 * has caught up, the table (the record's labels), the listing by label and the search facets must tell the
 * same story.
 */
describe('labels, documents and the search index under concurrent changes', () => {
  let deps: Parameters<typeof deleteLabel>[0] & Parameters<typeof updateDocument>[0] & Parameters<typeof deleteDocument>[0];
  let documents: DynamoDocumentRepository;
  let index: SqliteWorkspaceSearchIndex;
  let files: S3FileStore;
  let tableName: string;
  let poller: StreamPoller;

  beforeAll(async () => {
    const table = await freshAppStreamTable();
    const db = table.db;
    tableName = table.tableName;
    const { s3 } = testClients();
    const bucket = uniqueName('label-race');
    await ensureBucket(s3, bucket);
    files = new S3FileStore(s3, bucket);
    documents = new DynamoDocumentRepository(db, tableName, WORKSPACE_ID);
    const labels = new DynamoLabelRepository(db, tableName, WORKSPACE_ID);
    index = new SqliteSearchIndex(':memory:').forWorkspace(WORKSPACE_ID);
    deps = { documents, labels, files, clock: systemClock };
    poller = startStreamPoller({
      streams: table.streams,
      source: { streamArn: table.streamArn },
      handler: createIndexerHandler({ inWorkspace: () => ({ documents, labels, files, index }) }),
      pollIntervalMs: 20,
      retryDelayMs: () => 10,
    });
  });

  afterAll(async () => {
    await poller?.stop();
  });

  /** A document in the table, titled with a word that finds it, once the index has it. */
  const aStoredDocument = async (word: string) => {
    const record = aDocumentRecord({ title: word });
    await documents.create(record);
    await eventually(
      () => index.search(aSearchRequest({ query: { kind: 'term', field: 'all', value: word } })),
      (found) => found.results.some((hit) => hit.document_id === record.id),
    );
    return record.id;
  };

  /** What the three views say about one document and one label. */
  const views = async (documentId: string, labelId: string, word: string) => {
    const record = await documents.get(documentId);
    const listed = (await index.list({ page: 1, perPage: 20, sort: 'created_at', order: 'desc', labelIds: [labelId] }))?.ids ?? [];
    const found = await index.search(aSearchRequest({ query: { kind: 'term', field: 'all', value: word } }));
    return {
      record: record?.labels.includes(labelId) ?? false,
      listing: listed.includes(documentId),
      facet: (found.facets.labels[labelId] ?? 0) > 0,
    };
  };

  /** The three views once they agree with `expected` (or the last ones, after a bounded wait). */
  const viewsOnceSettled = async (documentId: string, labelId: string, word: string, expected: Awaited<ReturnType<typeof views>>) => {
    try {
      return await eventually(() => views(documentId, labelId, word), (seen) => JSON.stringify(seen) === JSON.stringify(expected));
    } catch {
      return views(documentId, labelId, word);
    }
  };

  const settled = <T>(promise: Promise<T>) => promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? 'threw',
  );

  it('a label delete racing an edit and an assignment leaves the label on no view of the document', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const word = `deleterace${round}`;
      const label = await createLabel(deps, editor, { name: `delete-race-${round}`, color: '#112233' });
      const [edited, assigned] = [await aStoredDocument(word), await aStoredDocument(word)];

      const outcomes = await Promise.all([
        settled(updateDocument(deps, edited, { labels: [label.id] })),
        settled(assignLabel(deps, label.id, [assigned])),
        settled(deleteLabel(deps, label.id)),
      ]);

      expect(outcomes[2]).toBe('ok');
      expect(['ok', 'VALIDATION_ERROR']).toContain(outcomes[0]);
      expect(['ok', 'NOT_FOUND']).toContain(outcomes[1]);
      for (const id of [edited, assigned]) {
        const seen = await viewsOnceSettled(id, label.id, word, { record: false, listing: false, facet: false });
        expect({ round, id, ...seen }).toEqual({ round, id, record: false, listing: false, facet: false });
      }
    }
  });

  it('a reindex that read a label\'s old name before a rename never overwrites the new name in the index', async () => {
    const label = await createLabel(deps, editor, { name: 'before-rename', color: '#112233' });
    const id = await aStoredDocument('renamerace');
    await updateDocument(deps, id, { labels: [label.id] });
    // The reindex of a concurrent assign, whose read of the label's name comes back late with the old one.
    const slow = testClients().dynamo;
    const lateName = hold(slow, 'reply', (command, _input, output) => command.startsWith('Get') && output.includes('before-rename'));
    const lateIndexer = createDocumentIndexer({ documents, labels: new DynamoLabelRepository(slow, tableName, WORKSPACE_ID), files, index });
    const late = lateIndexer.reindex(id);
    await lateName.held;

    await updateLabel(deps, label.id, { name: 'after-rename' });
    lateName.release();
    await late;

    const byName = async () => ({
      newName: (await index.search(aSearchRequest({ query: { kind: 'exact', field: 'labels', value: 'after-rename' } }))).results.map((hit) => hit.document_id),
      oldName: (await index.search(aSearchRequest({ query: { kind: 'exact', field: 'labels', value: 'before-rename' } }))).total,
    });
    await eventually(byName, (seen) => seen.newName.length === 1).catch(() => undefined);
    expect(await byName()).toEqual({ newName: [id], oldName: 0 });
  });

  /** A label delete stopped after the label is gone and before it took the label off its documents. */
  const aLabelDeleteInProgress = async (labelId: string) => {
    const slow = testClients().dynamo;
    const unlabelling = hold(slow, 'request', (command, input) => command.startsWith('TransactWrite') && input.includes('DELETE labels :label'));
    const deleting = deleteLabel({ ...deps, labels: new DynamoLabelRepository(slow, tableName, WORKSPACE_ID) }, labelId);
    await unlabelling.held;
    return { finish: async () => (unlabelling.release(), deleting) };
  };

  it('an edit taking a label off while that label is being deleted succeeds and leaves no trace of the label', async () => {
    const label = await createLabel(deps, editor, { name: 'unlabel-race', color: '#112233' });
    const [first, second] = [await aStoredDocument('unlabelrace'), await aStoredDocument('unlabelrace')];
    await assignLabel(deps, label.id, [first, second]);
    const deleting = await aLabelDeleteInProgress(label.id);

    const edit = await settled(updateDocument(deps, second, { labels: [] }));
    await deleting.finish();

    expect(edit).toBe('ok');
    for (const id of [first, second]) {
      const seen = await viewsOnceSettled(id, label.id, 'unlabelrace', { record: false, listing: false, facet: false });
      expect({ id, ...seen }).toEqual({ id, record: false, listing: false, facet: false });
    }
  });

  it('a document delete while one of its labels is being deleted succeeds and frees its other labels', async () => {
    const [doomed, kept] = [
      await createLabel(deps, editor, { name: 'doc-delete-doomed', color: '#112233' }),
      await createLabel(deps, editor, { name: 'doc-delete-kept', color: '#112233' }),
    ];
    const id = await aStoredDocument('docdeleterace');
    await updateDocument(deps, id, { labels: [doomed.id, kept.id] });
    const deleting = await aLabelDeleteInProgress(doomed.id);

    const removal = await settled(deleteDocument(deps, id));
    await deleting.finish();

    expect(removal).toBe('ok');
    expect(await documents.get(id)).toBeNull();
    expect((await deps.labels.get(kept.id))?.document_count).toBe(0);
    const found = await eventually(
      () => index.search(aSearchRequest({ query: { kind: 'term', field: 'all', value: 'docdeleterace' } })),
      (result) => result.total === 0,
    );
    expect(found.results).toEqual([]);
  });
});
