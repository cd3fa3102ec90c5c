import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteSearchIndex } from '../../../shared/adapters/local/sqlite-search-index';
import type { IndexedDocument, SearchRequest } from '../../../shared/domain/search/ports';
import { describeSearchIndexContract } from '../../contracts/search-index.contract';
import { aSearchRequest } from '../../support/builders';

describeSearchIndexContract('SQLite FTS5 in memory', async () => {
  const index = new SqliteSearchIndex(':memory:');
  return { index, refresh: async () => undefined, dispose: async () => index.close() };
});

describeSearchIndexContract('SQLite FTS5 in a file (WAL), ranked by reader threads', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'search-index-'));
  const index = new SqliteSearchIndex(path.join(dir, 'search.sqlite'), { readers: 2 });
  return {
    index,
    refresh: async () => undefined,
    dispose: async () => {
      index.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('SQLite FTS5 index, beyond the contract', () => {
  const dirs: string[] = [];
  const document = (n: number, overrides: Partial<IndexedDocument> = {}): IndexedDocument => ({
    id: `5a1e0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    version: 1,
    title: 'Quarterly report',
    filename: 'report.pdf',
    content: 'Revenue grew in every region.',
    mime_type: 'application/pdf',
    status: 'completed',
    labels: [],
    metadata: {},
    ocr_confidence: 0.9,
    size: 1000,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    ...overrides,
  });
  const request = (overrides: Partial<SearchRequest> = {}) =>
    aSearchRequest({ query: { kind: 'term', field: 'all', value: 'report' }, highlight: false, ...overrides });
  const fileIndex = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'search-index-'));
    dirs.push(dir);
    return path.join(dir, 'search.sqlite');
  };

  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('counts facets and filters of documents written before the file was reopened', async () => {
    // Arrange
    const file = await fileIndex();
    const first = new SqliteSearchIndex(file);
    await first.upsert(document(1, { labels: [{ id: 'l-1', name: 'Finance' }] }));
    await first.upsert(document(2, { mime_type: 'image/png' }));
    await first.upsert(document(3));
    await first.remove(document(3).id, 1);
    first.close();
    const reopened = new SqliteSearchIndex(file);

    // Act
    const all = await reopened.search(request());
    const pngs = await reopened.search(request({ filters: { mimeTypes: ['image/png'] } }));
    reopened.close();

    // Assert
    expect(all.total).toBe(2);
    expect(all.facets).toEqual({ mime_types: { 'application/pdf': 1, 'image/png': 1 }, labels: { 'l-1': 1 } });
    expect(pngs.results.map((hit) => hit.document_id)).toEqual([document(2).id]);
    expect(pngs.total).toBe(1);
  });

  it('orders a few equally scored documents by id although they were written in another order', async () => {
    // Arrange
    const index = new SqliteSearchIndex(':memory:');
    for (const n of [4, 2, 5, 1, 3]) await index.upsert(document(n));

    // Act
    const results = await index.search(request({ perPage: 3, page: 2 }));
    index.close();

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([document(4).id, document(5).id]);
    expect(results.total).toBe(5);
  });

  it('ranks in its own thread when the reader threads cannot open the file', async () => {
    // Arrange: the file is gone before the first search starts the readers (this connection keeps it open)
    const file = await fileIndex();
    const index = new SqliteSearchIndex(file, { readers: 2 });
    await index.upsert(document(3, { title: 'Quarterly summary', content: 'It mentions the report once.' }));
    await index.upsert(document(2));
    await index.upsert(document(1, { title: 'Quarterly summary', content: 'It mentions the report once.' }));
    await unlink(file);

    // Act
    const results = await index.search(request());
    index.close();

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([document(2).id, document(1).id, document(3).id]);
  });

  it('forgets the facets of a document when the index is cleared', async () => {
    // Arrange
    const index = new SqliteSearchIndex(':memory:');
    await index.upsert(document(1));
    await index.clear();
    await index.upsert(document(2, { mime_type: 'text/plain' }));

    // Act
    const results = await index.search(request());
    index.close();

    // Assert
    expect(results.facets.mime_types).toEqual({ 'text/plain': 1 });
    expect(results.total).toBe(1);
  });
});
