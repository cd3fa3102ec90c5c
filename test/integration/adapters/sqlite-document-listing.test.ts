import { describe, expect, it } from 'vitest';
import { SqliteSearchIndex } from '../../../shared/adapters/local/sqlite-search-index';
import type { DocumentQuery } from '../../../shared/domain/documents/ports';
import type { IndexedDocument } from '../../../shared/domain/search/ports';

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

const query = (overrides: Partial<DocumentQuery> = {}): DocumentQuery => ({ page: 1, perPage: 20, sort: 'created_at', order: 'desc', ...overrides });

describe('SqliteSearchIndex as the document listing index', () => {
  const indexOf = async (documents: IndexedDocument[]) => {
    const index = new SqliteSearchIndex(':memory:');
    for (const document of documents) await index.upsert(document);
    return index;
  };

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
});
