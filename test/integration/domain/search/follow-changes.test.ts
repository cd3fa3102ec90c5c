import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoImportedTexts } from '../../../../shared/adapters/aws/dynamodb/portability-job-repository';
import type { ItemChange } from '../../../../shared/domain/changes/ports';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { followChanges, type FollowChangesDeps } from '../../../../shared/domain/search/follow-changes';
import { aDocumentRecord, aSearchRequest } from '../../../support/builders';
import { aStoredDocument } from '../documents/document-setup';
import { domainStores, editorOf, type WorkspaceStores } from '../workspace-stores';
import { memoryIndex } from './search-setup';

/**
 * The indexer following batches of changes as the stream delivers them (each insert's new image), on DynamoDB
 * Local, the S3 emulator and the SQLite index: a burst of uploads reaches the index whole, with only the reads
 * it needs.
 */
describe('the indexer following a burst of uploads', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;
  const index = memoryIndex();

  beforeAll(async () => {
    stores = await domainStores();
  });

  afterAll(() => index.close());

  /** The insert's change, as the table's stream delivers it. */
  const inserted = (w: WorkspaceStores, document: DocumentRecord, sequence: number): ItemChange => ({
    id: `event-${sequence}`,
    sequence: String(sequence).padStart(21, '0'),
    at: document.created_at,
    entity: 'document',
    workspaceId: w.workspaceId,
    documentId: document.id,
    old: null,
    new: { ...document, version: 1 },
  });

  /** The workspace's real stores and index view, with the text and label reads counted. */
  const following = (w: WorkspaceStores, erased?: FollowChangesDeps['erased']) => {
    const reads = { texts: 0, labels: 0 };
    const view = index.forWorkspace(w.workspaceId);
    const deps: FollowChangesDeps = {
      inWorkspace: () => ({
        documents: {
          get: (id) => w.documents.get(id),
          getContent: (id) => {
            reads.texts++;
            return w.documents.getContent(id);
          },
          list: (query) => w.documents.list(query),
        },
        labels: {
          get: (id) => {
            reads.labels++;
            return w.labels.get(id);
          },
        },
        files: w.files,
        index: view,
      }),
      ...(erased ? { erased } : {}),
    };
    return { deps, reads, view };
  };

  /** The ids of the workspace's documents a word finds. */
  const found = async (view: ReturnType<typeof index.forWorkspace>, word: string) =>
    (await view.search(aSearchRequest({ query: { kind: 'term', field: 'all', value: word }, perPage: 100 }))).results.map((hit) => hit.document_id).sort();

  it('indexes 40 documents uploaded at once with OCR off, each found by its title, without reading their texts', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const { deps, reads, view } = following(w);
    const uploaded = await Promise.all(
      Array.from({ length: 40 }, (_, n) => aStoredDocument(w, { title: `zqburst n${n}`, status: 'completed', ocr_enabled: false })),
    );

    // Act
    const outcome = await followChanges(
      deps,
      uploaded.map((document, n) => inserted(w, document, n + 1)),
    );

    // Assert
    expect(outcome).toEqual({});
    expect(await found(view, 'zqburst')).toEqual(uploaded.map((document) => document.id).sort());
    expect(reads.texts).toBe(0);
  });

  it('indexes a document an import wrote, its text first, with that text, which it reads', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const { deps, reads, view } = following(w);
    const document = aDocumentRecord({ status: 'completed', ocr_enabled: true });
    await new DynamoImportedTexts(stores.db, stores.tableName, w.workspaceId).put(document.id, { text: 'zqimported minutes' });
    await w.documents.create(document);

    // Act
    await followChanges(deps, [inserted(w, document, 1)]);

    // Assert
    expect(await found(view, 'zqimported')).toEqual([document.id]);
    expect(reads.texts).toBe(1);
  });

  it('indexes a document an import wrote with the text it wrote first, when the two come in two batches', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const { deps, view } = following(w);
    const document = aDocumentRecord({ title: 'zqsplit', status: 'completed', ocr_enabled: true });
    await new DynamoImportedTexts(stores.db, stores.tableName, w.workspaceId).put(document.id, { text: 'zqearlier batch' });
    const textWritten: ItemChange = {
      id: 'event-1',
      sequence: '000000000000000000001',
      at: document.created_at,
      entity: 'document_content',
      workspaceId: w.workspaceId,
      documentId: document.id,
      old: null,
      new: { text: 'zqearlier batch' },
    };

    // Act
    await followChanges(deps, [textWritten]);
    await w.documents.create(document);
    await followChanges(deps, [inserted(w, document, 2)]);

    // Assert
    expect(await found(view, 'zqearlier')).toEqual([document.id]);
  });

  it("reads a label's name once for a burst of documents carrying it, and finds each by it", async () => {
    // Arrange
    const w = stores.inWorkspace();
    const { deps, reads, view } = following(w);
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Zqreceipts', color: '#000000' });
    const uploaded = await Promise.all(
      Array.from({ length: 10 }, () => aStoredDocument(w, { status: 'completed', ocr_enabled: false, labels: [label.id] })),
    );

    // Act
    await followChanges(
      deps,
      uploaded.map((document, n) => inserted(w, document, n + 1)),
    );

    // Assert
    expect(await found(view, 'zqreceipts')).toEqual(uploaded.map((document) => document.id).sort());
    expect(reads.labels).toBe(1);
  });

  it('writes nothing for a workspace whose deletion was requested, and reports no failure', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const { deps, view } = following(w, () => Promise.resolve(true));
    const document = await aStoredDocument(w, { title: 'zqerased', status: 'completed', ocr_enabled: false });

    // Act
    const outcome = await followChanges(deps, [inserted(w, document, 1)]);

    // Assert
    expect(outcome).toEqual({});
    expect(await found(view, 'zqerased')).toEqual([]);
  });
});
