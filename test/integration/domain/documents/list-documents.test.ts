import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import { listDocuments } from '../../../../shared/domain/documents/list-documents';
import type { DocumentQuery } from '../../../../shared/domain/documents/ports';
import { createLabel } from '../../../../shared/domain/labels/create-label';
import { createDocumentIndexer } from '../../../../shared/domain/search/document-indexer';
import { domainStores, editorOf, type WorkspaceStores } from '../workspace-stores';
import { aStoredDocument } from './document-setup';

const query = (overrides: Partial<DocumentQuery> = {}): DocumentQuery => ({ page: 1, perPage: 20, sort: 'created_at', order: 'desc', ...overrides });

describe('listDocuments', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;
  const index = new SqliteSearchIndex(':memory:');

  beforeAll(async () => {
    stores = await domainStores();
  });

  afterAll(() => index.close());

  /** Documents created a day apart, oldest first, each with `titles`' title. */
  const documentsTitled = async (w: WorkspaceStores, titles: string[], extra: (i: number) => Parameters<typeof aStoredDocument>[1] = () => ({})) => {
    const stored = [];
    for (const [i, title] of titles.entries()) stored.push(await aStoredDocument(w, { title, created_at: `2026-01-${String(i + 1).padStart(2, '0')}T00:00:00.000Z`, ...extra(i) }));
    return stored;
  };

  it('lists the newest documents first, as summaries without text or who created them', async () => {
    // Arrange
    const w = stores.inWorkspace();
    await documentsTitled(w, ['first', 'second', 'third']);

    // Act
    const page = await listDocuments(w, query());

    // Assert
    expect(page.data.map((document) => document.title)).toEqual(['third', 'second', 'first']);
    expect(page.pagination).toMatchObject({ total: 3, page: 1 });
    expect(page.data[0]).not.toHaveProperty('created_by');
    expect(page.data[0]).not.toHaveProperty('content');
  });

  it('filters and sorts from the table when the runtime has no listing index', async () => {
    // Arrange
    const w = stores.inWorkspace();
    await documentsTitled(w, ['b', 'c', 'a'], (i) => ({ status: i === 1 ? 'failed' : 'completed' }));

    // Act
    const page = await listDocuments(w, query({ status: 'completed', sort: 'title', order: 'asc' }));

    // Assert
    expect(page.data.map((document) => document.title)).toEqual(['a', 'b']);
  });

  it("serves a filtered listing from the listing index, with the table's records", async () => {
    // Arrange
    const w = stores.inWorkspace();
    const label = await createLabel(w, editorOf(w.workspaceId), { name: 'Wanted', color: '#000000' });
    const documents = await documentsTitled(w, ['x', 'y', 'z'], (i) => ({ labels: i === 1 ? [] : [label.id] }));
    const listingIndex = index.forWorkspace(w.workspaceId);
    const indexer = createDocumentIndexer({ ...w, index: listingIndex });
    for (const document of documents) await indexer.reindex(document.id);

    // Act
    const page = await listDocuments({ ...w, listingIndex }, query({ labelIds: [label.id] }));

    // Assert
    expect(page.data.map((document) => document.title)).toEqual(['z', 'x']);
    expect(page.pagination.total).toBe(2);
  });

  it('pages through the plain listing', async () => {
    // Arrange
    const w = stores.inWorkspace();
    await documentsTitled(w, ['1', '2', '3', '4', '5']);

    // Act
    const second = await listDocuments(w, query({ page: 2, perPage: 2 }));

    // Assert
    expect(second.data.map((document) => document.title)).toEqual(['3', '2']);
    expect(second.pagination).toMatchObject({ total: 5, total_pages: 3 });
  });

  it("lists none of another workspace's documents", async () => {
    // Arrange
    const [mine, theirs] = [stores.inWorkspace(), stores.inWorkspace()];
    await documentsTitled(theirs, ['theirs']);

    // Act
    const page = await listDocuments(mine, query());

    // Assert
    expect({ data: page.data, total: page.pagination.total }).toEqual({ data: [], total: 0 });
  });
});
