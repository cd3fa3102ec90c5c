import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateDocument } from '../../../../shared/domain/documents/update-document';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { createDocumentIndexer, toIndexedDocument } from '../../../../shared/domain/search/document-indexer';
import { aSearchRequest } from '../../../support/builders';
import { aStoredDocument, completeOcr } from '../documents/document-setup';
import { domainStores, editorOf } from '../workspace-stores';
import { memoryIndex } from './search-setup';

describe('the document indexer', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;
  const index = memoryIndex();

  beforeAll(async () => {
    stores = await domainStores();
  });

  afterAll(() => index.close());

  /** A workspace's stores with its view of the index and its indexer. */
  const indexing = () => {
    const w = stores.inWorkspace();
    const view = index.forWorkspace(w.workspaceId);
    return { w, view, indexer: createDocumentIndexer({ ...w, index: view }) };
  };

  /** The ids the view finds for a word. */
  const found = async (view: ReturnType<typeof index.forWorkspace>, word: string) =>
    (await view.search(aSearchRequest({ query: { kind: 'term', field: 'all', value: word } }))).results.map((hit) => hit.document_id);

  it("indexes a document's current record, its text and its labels' names", async () => {
    // Arrange
    const { w, view, indexer } = indexing();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Quarterly', color: '#000000' });
    const document = await aStoredDocument(w, { labels: [label.id] });
    await completeOcr(w, document, { text: 'Revenue grew' });

    // Act
    await indexer.reindex(document.id);

    // Assert
    expect({ byText: await found(view, 'revenue'), byLabel: await found(view, 'quarterly') }).toEqual({ byText: [document.id], byLabel: [document.id] });
  });

  it('reads text too large for the table from its object', async () => {
    // Arrange
    const { w, view, indexer } = indexing();
    const document = await aStoredDocument(w);
    await w.files.put(fileKeys.text(document.id), new TextEncoder().encode('Voluminous appendix'), 'text/plain');
    await completeOcr(w, document, { text_object: fileKeys.text(document.id) });

    // Act
    await indexer.reindex(document.id);

    // Assert
    expect(await found(view, 'appendix')).toEqual([document.id]);
  });

  it('removes a document that no longer exists, for good: an older copy indexed later does not bring it back', async () => {
    // Arrange
    const { w, view, indexer } = indexing();
    const document = await aStoredDocument(w, { title: 'Ephemeral' });
    await indexer.reindex(document.id);
    const record = (await w.documents.get(document.id))!;
    await w.documents.delete(document.id);

    // Act
    await indexer.reindex(document.id);
    await indexer.index(record, { text: '' });

    // Assert
    expect(await found(view, 'ephemeral')).toEqual([]);
  });

  it('keeps the newest version when an older image arrives late', async () => {
    // Arrange
    const { w, view, indexer } = indexing();
    const document = await aStoredDocument(w, { title: 'Draft' });
    const first = (await w.documents.get(document.id))!;
    await updateDocument(w, document.id, { title: 'Final' });
    await indexer.reindex(document.id);

    // Act
    await indexer.index(first);

    // Assert
    expect({ final: await found(view, 'final'), draft: await found(view, 'draft') }).toEqual({ final: [document.id], draft: [] });
  });

  it('indexes the text a caller already knows without reading it again', async () => {
    // Arrange
    const { w, view } = indexing();
    const document = await aStoredDocument(w);

    // Act
    const indexed = await toIndexedDocument({ ...w, index: view }, (await w.documents.get(document.id))!, { text: 'known text' });

    // Assert
    expect(indexed).toMatchObject({ id: document.id, content: 'known text', version: 1, labels: [] });
  });

  it('indexes a label deleted meanwhile under an empty name', async () => {
    // Arrange
    const { w, view } = indexing();
    const ghost = crypto.randomUUID();
    const record = { ...(await aStoredDocument(w)), labels: [ghost] };

    // Act
    const indexed = await toIndexedDocument({ ...w, index: view }, record, { text: '' });

    // Assert
    expect(indexed.labels).toEqual([{ id: ghost, name: '' }]);
  });
});
