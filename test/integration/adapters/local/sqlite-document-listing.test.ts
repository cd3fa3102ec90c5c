import { describe, expect, it } from 'vitest';
import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import type { DocumentQuery } from '../../../../shared/domain/documents/ports';
import type { IndexedDocument } from '../../../../shared/domain/search/ports';

const LABEL_A = '00000000-0000-4000-8000-00000000000a';
const LABEL_B = '00000000-0000-4000-8000-00000000000b';

const aDocument = (n: number, overrides: Partial<IndexedDocument> = {}): IndexedDocument => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  version: 1,
  title: `doc ${n}`,
  filename: `doc-${n}.pdf`,
  content: '',
  mime_type: 'application/pdf',
  status: 'completed',
  labels: [],
  metadata: {},
  ocr_confidence: null,
  size: n * 10,
  created_at: `2026-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
  updated_at: `2026-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
  ...overrides,
});

const WORKSPACE = '3a3a0000-0000-4000-8000-000000000001';
const OTHER = '3a3a0000-0000-4000-8000-000000000002';

const query = (overrides: Partial<DocumentQuery> = {}): DocumentQuery => ({ page: 1, perPage: 20, sort: 'created_at', order: 'desc', ...overrides });

describe('SqliteSearchIndex as the document listing index', () => {
  /** The workspace's view of an index holding these documents, beside other documents of another workspace. */
  const indexOf = async (documents: IndexedDocument[], others: IndexedDocument[] = []) => {
    const store = new SqliteSearchIndex(':memory:');
    const index = store.forWorkspace(WORKSPACE);
    for (const document of documents) await index.upsert(document);
    for (const document of others) await store.forWorkspace(OTHER).upsert(document);
    return index;
  };
  /** Documents of another workspace that every filter below would keep, were the listing not scoped. */
  const othersLike = (documents: IndexedDocument[]) =>
    documents.map((document, i) => ({ ...document, id: `0e0e0000-0000-4000-8000-${String(i + 1).padStart(12, '0')}` }));

  it('filters by status and sorts by title without regard to case', async () => {
    const index = await indexOf([
      aDocument(1, { title: 'bravo' }),
      aDocument(2, { title: 'Alpha' }),
      aDocument(3, { title: 'charlie', status: 'failed' }),
    ]);

    const page = await index.list(query({ status: 'completed', sort: 'title', order: 'asc' }));

    expect(page).toEqual({ ids: [aDocument(2).id, aDocument(1).id], total: 2 });
  });

  it('keeps only documents carrying every given label', async () => {
    const index = await indexOf([
      aDocument(1, { labels: [{ id: LABEL_A, name: 'a' }] }),
      aDocument(2, { labels: [{ id: LABEL_A, name: 'a' }, { id: LABEL_B, name: 'b' }] }),
    ]);

    const page = await index.list(query({ labelIds: [LABEL_A, LABEL_B] }));

    expect(page?.ids).toEqual([aDocument(2).id]);
  });

  it('bounds creation dates inclusively and pages with the true total', async () => {
    const index = await indexOf([1, 2, 3, 4, 5].map((n) => aDocument(n)));

    const page = await index.list(
      query({ createdFrom: aDocument(2).created_at, createdTo: aDocument(5).created_at, sort: 'size', order: 'asc', page: 2, perPage: 3 }),
    );

    expect(page).toEqual({ ids: [aDocument(5).id], total: 4 });
  });

  it('leaves out deleted documents', async () => {
    const index = await indexOf([aDocument(1), aDocument(2)]);

    await index.remove(aDocument(1).id, 2);
    const page = await index.list(query({ sort: 'title' }));

    expect(page).toEqual({ ids: [aDocument(2).id], total: 1 });
  });

  it('declines a source filter, which it does not hold', async () => {
    const index = await indexOf([aDocument(1)]);

    const page = await index.list(query({ sourceId: '00000000-0000-4000-8000-0000000000ff' }));

    expect(page).toBeNull();
  });

  it("lists none of another workspace's documents, whatever the filters", async () => {
    const mine = [aDocument(1, { labels: [{ id: LABEL_A, name: 'a' }] }), aDocument(2, { labels: [{ id: LABEL_A, name: 'a' }] })];
    const index = await indexOf(mine, othersLike(mine));

    const pages = await Promise.all([
      index.list(query()),
      index.list(query({ sort: 'title', order: 'asc' })),
      index.list(query({ status: 'completed', sort: 'size' })),
      index.list(query({ labelIds: [LABEL_A], sort: 'updated_at' })),
      index.list(query({ createdFrom: aDocument(1).created_at, createdTo: aDocument(2).created_at, sort: 'filename' })),
    ]);

    for (const page of pages) {
      expect(page?.total).toBe(2);
      expect([...(page?.ids ?? [])].sort()).toEqual([aDocument(1).id, aDocument(2).id]);
    }
  });

  it('lists nothing in a workspace whose documents are all elsewhere', async () => {
    const index = await indexOf([], [aDocument(1)]);

    const page = await index.list(query());

    expect(page).toEqual({ ids: [], total: 0 });
  });

  it("does not delist another workspace's document removed through this workspace", async () => {
    const store = new SqliteSearchIndex(':memory:');
    await store.forWorkspace(OTHER).upsert(aDocument(1));

    await store.forWorkspace(WORKSPACE).remove(aDocument(1).id, 2);
    const page = await store.forWorkspace(OTHER).list(query());

    expect(page).toEqual({ ids: [aDocument(1).id], total: 1 });
  });

  it("refuses an upsert of an id another workspace holds: neither workspace's listing changes", async () => {
    const store = new SqliteSearchIndex(':memory:');
    await store.forWorkspace(OTHER).upsert(aDocument(1, { title: 'theirs' }));

    await store.forWorkspace(WORKSPACE).upsert(aDocument(1, { version: 9, title: 'ours' }));
    const theirs = await store.forWorkspace(OTHER).list(query({ sort: 'title' }));
    const ours = await store.forWorkspace(WORKSPACE).list(query({ sort: 'title' }));

    expect(theirs).toEqual({ ids: [aDocument(1).id], total: 1 });
    expect(ours).toEqual({ ids: [], total: 0 });
  });
});
