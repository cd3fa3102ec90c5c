import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import { PAGE_SIZE } from '../../../../shared/adapters/local/sqlite-search-schema';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../shared/domain/workspaces/workspace';
import type { IndexedDocument, SearchRequest } from '../../../../shared/domain/search/ports';
import { describeSearchIndexContract } from '../../../contracts/search-index.contract';
import { aSearchRequest } from '../../../support/builders';

describeSearchIndexContract('SQLite FTS5 in memory', async () => {
  const index = new SqliteSearchIndex(':memory:');
  return { store: index, refresh: async () => undefined, dispose: async () => index.close() };
});

describeSearchIndexContract('SQLite FTS5 in a file (WAL), ranked by reader threads', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'search-index-'));
  const index = new SqliteSearchIndex(path.join(dir, 'search.sqlite'), { readers: 2, readersFromDocuments: 1 });
  return {
    store: index,
    refresh: async () => undefined,
    dispose: async () => {
      index.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

const WORKSPACE = '3a3a0000-0000-4000-8000-000000000001';
const OTHER = '3a3a0000-0000-4000-8000-000000000002';

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
    const written = first.forWorkspace(WORKSPACE);
    await written.upsert(document(1, { labels: [{ id: 'l-1', name: 'Finance' }] }));
    await written.upsert(document(2, { mime_type: 'image/png' }));
    await written.upsert(document(3));
    await written.remove(document(3).id, 1);
    await first.forWorkspace(OTHER).upsert(document(4, { mime_type: 'image/png' }));
    first.close();
    const reopened = new SqliteSearchIndex(file);

    // Act
    const all = await reopened.forWorkspace(WORKSPACE).search(request());
    const pngs = await reopened.forWorkspace(WORKSPACE).search(request({ filters: { mimeTypes: ['image/png'] } }));
    reopened.close();

    // Assert
    expect(all.total).toBe(2);
    expect(all.facets).toEqual({ mime_types: { 'application/pdf': 1, 'image/png': 1 }, labels: { 'l-1': 1 } });
    expect(pngs.results.map((hit) => hit.document_id)).toEqual([document(2).id]);
    expect(pngs.total).toBe(1);
  });

  it('orders a few equally scored documents by id although they were written in another order', async () => {
    // Arrange
    const store = new SqliteSearchIndex(':memory:');
    const index = store.forWorkspace(WORKSPACE);
    for (const n of [4, 2, 5, 1, 3]) await index.upsert(document(n));

    // Act
    const results = await index.search(request({ perPage: 3, page: 2 }));
    store.close();

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([document(4).id, document(5).id]);
    expect(results.total).toBe(5);
  });

  it('ranks in its own thread when the reader threads cannot open the file', async () => {
    // Arrange: the file is gone before the first search starts the readers (this connection keeps it open)
    const file = await fileIndex();
    const store = new SqliteSearchIndex(file, { readers: 2, readersFromDocuments: 1 });
    const index = store.forWorkspace(WORKSPACE);
    await index.upsert(document(3, { title: 'Quarterly summary', content: 'It mentions the report once.' }));
    await index.upsert(document(2));
    await index.upsert(document(1, { title: 'Quarterly summary', content: 'It mentions the report once.' }));
    await unlink(file);

    // Act
    const results = await index.search(request());
    store.close();

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([document(2).id, document(1).id, document(3).id]);
  });

  it('forgets the facets of a document when the index is cleared', async () => {
    // Arrange
    const store = new SqliteSearchIndex(':memory:');
    const index = store.forWorkspace(WORKSPACE);
    await index.upsert(document(1));
    await store.clear();
    await index.upsert(document(2, { mime_type: 'text/plain' }));

    // Act
    const results = await index.search(request());
    store.close();

    // Assert
    expect(results.facets.mime_types).toEqual({ 'text/plain': 1 });
    expect(results.total).toBe(1);
  });

  it('ranks a relevance page as the general query does when another workspace holds most of the index', async () => {
    // Arrange: scores vary with each document's length, and the other workspace's rows outrank many of ours
    const store = new SqliteSearchIndex(':memory:');
    const index = store.forWorkspace(WORKSPACE);
    const content = (n: number) => `report ${'filler '.repeat(n % 17)}`;
    for (let n = 1; n <= 40; n++) await index.upsert(document(n, { title: 'Memo', content: content(n) }));
    const others = Array.from({ length: 200 }, (_, i) => document(1000 + i, { title: 'Memo', content: content(i) }));
    store.forWorkspace(OTHER).upsertMany(others);

    // Act: a filter that keeps every document takes the general query instead of the BM25 ranking
    const ranked = await index.search(request({ perPage: 10, page: 2 }));
    const general = await index.search(request({ perPage: 10, page: 2, filters: { minConfidence: 0 } }));
    store.close();

    // Assert
    expect(ranked.results.map((hit) => hit.document_id)).toEqual(general.results.map((hit) => hit.document_id));
    expect(ranked.results).toHaveLength(10);
    expect(ranked.total).toBe(40);
  });

  it("never corrects a typo to another workspace's words", async () => {
    // Arrange: the other workspace holds 23 words as close to the typo as the right one, all sorting before it
    const store = new SqliteSearchIndex(':memory:');
    const index = store.forWorkspace(WORKSPACE);
    await index.upsert(document(1, { title: 'Parcel', content: 'Please receive the parcel.' }));
    const lookalikes = [...'abcdefghijklmnopq'].map((c) => `${c}ecieve`).concat([...'abcd'].map((c) => `r${c}cieve`), ['reaieve', 'rebieve']);
    await store.forWorkspace(OTHER).upsert(document(2, { title: 'Lookalikes', content: lookalikes.join(' ') }));

    // Act
    const results = await index.search(request({ query: { kind: 'term', field: 'all', value: 'recieve' }, fuzzy: true }));
    store.close();

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([document(1).id]);
  });

  it('applies writes sent at once in the order they were sent, each with its own version check', async () => {
    // Arrange
    const store = new SqliteSearchIndex(':memory:');
    const index = store.forWorkspace(WORKSPACE);

    // Act: version 2, then an older copy, then a removal of version 1, all in one turn of the event loop.
    await Promise.all([
      index.upsert(document(1, { version: 2, title: 'Newer title' })),
      index.upsert(document(1, { version: 1, title: 'Older title' })),
      index.upsert(document(2, { title: 'Quarterly report' })),
      index.remove(document(3).id, 1),
      index.upsert(document(3, { version: 1, title: 'Quarterly report' })),
    ]);
    const newer = await index.search(request({ query: { kind: 'term', field: 'all', value: 'newer' } }));
    const report = await index.search(request({ query: { kind: 'term', field: 'title', value: 'quarterly' } }));
    store.close();

    // Assert
    expect(newer.results.map((hit) => hit.document_id)).toEqual([document(1).id]);
    expect(report.results.map((hit) => hit.document_id)).toEqual([document(2).id]);
    expect(report.total).toBe(1);
  });

  it('adopts an index file written before workspaces: its entries are the bootstrap workspace\'s', async () => {
    // Arrange: the layout of the previous version, without workspace columns
    const file = await fileIndex();
    const old = new Database(file);
    old.function('inflate_text', { deterministic: true }, () => '');
    old.pragma(`page_size = ${PAGE_SIZE}`);
    old.pragma('journal_mode = WAL');
    old.exec(PRE_WORKSPACE_SCHEMA);
    old.prepare(`INSERT INTO docs (id, version, title, filename, mime_type, status, created_at, updated_at, label_ids) VALUES (?, 1, ?, 'a.pdf', 'application/pdf', 'completed', ?, ?, ?)`)
      .run(document(1).id, 'Quarterly report', document(1).created_at, document(1).updated_at, JSON.stringify(['l-1']));
    old.prepare(`INSERT INTO fts (rowid, title, filename, content, labels, metadata) VALUES (1, 'Quarterly report', 'a.pdf', '', '', '')`).run();
    old.prepare(`INSERT INTO words (len, word) VALUES (9, 'quarterly'), (6, 'report')`).run();
    old.close();

    // Act
    const store = new SqliteSearchIndex(file);
    const bootstrap = store.forWorkspace(BOOTSTRAP_WORKSPACE_ID);
    const found = await bootstrap.search(request());
    const fuzzy = await bootstrap.search(request({ query: { kind: 'term', field: 'all', value: 'quartelry' }, fuzzy: true }));
    const listed = await bootstrap.list({ page: 1, perPage: 20, sort: 'created_at', order: 'desc' });
    const elsewhere = await store.forWorkspace(OTHER).search(request());
    store.close();

    // Assert
    expect(found.results.map((hit) => hit.document_id)).toEqual([document(1).id]);
    expect(found.facets).toEqual({ mime_types: { 'application/pdf': 1 }, labels: { 'l-1': 1 } });
    expect(fuzzy.total).toBe(1);
    expect(listed).toEqual({ ids: [document(1).id], total: 1 });
    expect(elsewhere.total).toBe(0);
  });

  it('keeps the adopted entries through a second opening and new writes', async () => {
    // Arrange
    const file = await fileIndex();
    const old = new Database(file);
    old.function('inflate_text', { deterministic: true }, () => '');
    old.exec(PRE_WORKSPACE_SCHEMA);
    old.prepare(`INSERT INTO docs (id, version, title, created_at) VALUES (?, 1, 'Quarterly report', '2024-01-01T00:00:00.000Z')`).run(document(1).id);
    old.prepare(`INSERT INTO fts (rowid, title, filename, content, labels, metadata) VALUES (1, 'Quarterly report', '', '', '', '')`).run();
    old.close();
    new SqliteSearchIndex(file).close();
    const store = new SqliteSearchIndex(file);
    await store.forWorkspace(OTHER).upsert(document(2));

    // Act
    const bootstrap = await store.forWorkspace(BOOTSTRAP_WORKSPACE_ID).search(request());
    const other = await store.forWorkspace(OTHER).search(request());
    store.close();

    // Assert
    expect(bootstrap.results.map((hit) => hit.document_id)).toEqual([document(1).id]);
    expect(other.results.map((hit) => hit.document_id)).toEqual([document(2).id]);
  });
});

/** The schema of the index before workspaces (the version before issue 13), to test the adoption of its files. */
const PRE_WORKSPACE_SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  version INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL DEFAULT '',
  filename TEXT NOT NULL DEFAULT '',
  content_z BLOB,
  labels_text TEXT NOT NULL DEFAULT '',
  metadata_text TEXT NOT NULL DEFAULT '',
  mime_type TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT '',
  ocr_confidence REAL,
  size INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL DEFAULT '',
  label_ids TEXT NOT NULL DEFAULT '[]',
  label_names TEXT NOT NULL DEFAULT '[]',
  metadata_values TEXT NOT NULL DEFAULT '[]'
);
CREATE VIEW IF NOT EXISTS fts_source AS
  SELECT rid, title, filename, inflate_text(content_z) AS content, labels_text AS labels, metadata_text AS metadata FROM docs;
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
  title, filename, content, labels, metadata,
  content = 'fts_source', content_rowid = 'rid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS tri USING fts5(
  title, filename, content, labels, metadata,
  tokenize = 'trigram remove_diacritics 1', content = '', contentless_delete = 1
);
CREATE TABLE IF NOT EXISTS words (len INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (len, word)) WITHOUT ROWID;
`;
