import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import { PAGE_SIZE, rowidRange } from '../../../../shared/adapters/local/sqlite-search-schema';
import type { IndexedDocument, SearchRequest } from '../../../../shared/domain/search/ports';
import { aSearchRequest } from '../../../support/builders';

const WORKSPACE = '3a3a0000-0000-4000-8000-000000000001';
const OTHER = '3a3a0000-0000-4000-8000-000000000002';

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
  created_at: `2024-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
  updated_at: `2024-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
  ...overrides,
});
const request = (overrides: Partial<SearchRequest> = {}) =>
  aSearchRequest({ query: { kind: 'term', field: 'all', value: 'report' }, highlight: false, ...overrides });
const ids = (results: { results: { document_id: string }[] }) => results.results.map((hit) => hit.document_id);

describe('SQLite FTS5 index: a row id range per workspace', () => {
  const dirs: string[] = [];
  const fileIndex = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'search-ranges-'));
    dirs.push(dir);
    return path.join(dir, 'search.sqlite');
  };
  /** The row ids of each workspace, in id order, as the file holds them. */
  const rowidsByWorkspace = (file: string) => {
    const db = new Database(file, { readonly: true });
    const rows = db
      .prepare<[], { workspace_id: string; rid: number }>('SELECT w.workspace_id, d.rid FROM docs AS d JOIN workspaces AS w ON w.slot = d.slot ORDER BY d.rid')
      .all();
    const slots = db.prepare<[], { workspace_id: string; slot: number }>('SELECT workspace_id, slot FROM workspaces').all();
    db.close();
    const rids = (workspaceId: string) => rows.filter((row) => row.workspace_id === workspaceId).map((row) => row.rid);
    const slot = (workspaceId: string) => slots.find((row) => row.workspace_id === workspaceId)!.slot;
    return { rids, slot };
  };

  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it("numbers each workspace's entries consecutively in a row id range of its own, however their writes interleave", async () => {
    // Arrange
    const file = await fileIndex();
    const store = new SqliteSearchIndex(file);

    // Act: writes alternate between the workspaces, with a removal of a never-indexed id (a tombstone) among them
    for (let n = 1; n <= 6; n++) await store.forWorkspace(n % 2 ? WORKSPACE : OTHER).upsert(document(n));
    await store.forWorkspace(OTHER).remove(document(7).id, 1);
    await store.forWorkspace(WORKSPACE).upsert(document(8));
    store.close();

    // Assert
    const { rids, slot } = rowidsByWorkspace(file);
    const mine = rowidRange(slot(WORKSPACE));
    const others = rowidRange(slot(OTHER));
    expect(rids(WORKSPACE)).toEqual([mine.first, mine.first + 1, mine.first + 2, mine.first + 3]);
    expect(rids(OTHER)).toEqual([others.first, others.first + 1, others.first + 2, others.first + 3]);
    expect(slot(WORKSPACE)).not.toBe(slot(OTHER));
  });

  it('keeps a workspace\'s slot and continues its range after the file is reopened', async () => {
    // Arrange
    const file = await fileIndex();
    const first = new SqliteSearchIndex(file);
    await first.forWorkspace(WORKSPACE).upsert(document(1));
    await first.forWorkspace(OTHER).upsert(document(2));
    first.close();

    // Act
    const reopened = new SqliteSearchIndex(file);
    await reopened.forWorkspace(OTHER).upsert(document(3));
    await reopened.forWorkspace(WORKSPACE).upsert(document(4));
    const results = await reopened.forWorkspace(WORKSPACE).search(request());
    reopened.close();

    // Assert
    const { rids, slot } = rowidsByWorkspace(file);
    expect(rids(WORKSPACE)).toEqual([rowidRange(slot(WORKSPACE)).first, rowidRange(slot(WORKSPACE)).first + 1]);
    expect(rids(OTHER)).toEqual([rowidRange(slot(OTHER)).first, rowidRange(slot(OTHER)).first + 1]);
    expect(ids(results)).toEqual([document(1).id, document(4).id]);
  });

  it.each([
    ['a large workspace (ranked by the reader threads)', 40, 10],
    ['a small workspace (ranked by the main thread)', 10, 40],
  ])('ranks a relevance page of %s as the general query does', async (_, mine, others) => {
    // Arrange: a file, so that reader threads exist; scores vary with each document's length
    const store = new SqliteSearchIndex(await fileIndex(), { readers: 2, readersFromDocuments: 20 });
    const content = (n: number) => `report ${'filler '.repeat(n % 17)}`;
    store.forWorkspace(WORKSPACE).upsertMany(Array.from({ length: mine }, (_, i) => document(i + 1, { title: 'Memo', content: content(i) })));
    store.forWorkspace(OTHER).upsertMany(Array.from({ length: others }, (_, i) => document(1000 + i, { title: 'Memo', content: content(i) })));
    const index = store.forWorkspace(WORKSPACE);

    // Act: a filter that keeps every document takes the general query instead of the BM25 ranking
    const ranked = await index.search(request({ perPage: 5, page: 2 }));
    const general = await index.search(request({ perPage: 5, page: 2, filters: { minConfidence: 0 } }));
    store.close();

    // Assert
    expect(ids(ranked)).toEqual(ids(general));
    expect(ranked.results).toHaveLength(5);
    expect(ranked.total).toBe(mine);
  });

  it('refuses a slot beyond what a row id can hold', () => {
    // Arrange, Act, Assert
    expect(() => rowidRange(2 ** 21)).toThrow(/slot out of range/);
  });

  describe('adopting a file written with a workspace column (row ids in write order, not ranged)', () => {
    /**
     * Writes a file as the previous version did: the documents' rows interleaved across workspaces, both
     * full-text tables, each workspace's fuzzy vocabulary, and a tombstone at version 2 in OTHER.
     */
    const writeUnrangedFile = (file: string, documents: { workspaceId: string; document: IndexedDocument }[]) => {
      const old = new Database(file);
      old.function('inflate_text', { deterministic: true }, (blob: unknown) => (blob ? inflateRawSync(blob as Buffer).toString('utf8') : ''));
      old.pragma(`page_size = ${PAGE_SIZE}`);
      old.pragma('journal_mode = WAL');
      old.exec(UNRANGED_SCHEMA);
      const insertDoc = old.prepare(
        `INSERT INTO docs (rid, id, workspace_id, version, title, filename, content_z, mime_type, status, ocr_confidence, size, created_at, updated_at)
         VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertText = (table: string) => old.prepare(`INSERT INTO ${table} (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, '', '')`);
      const insertWord = old.prepare('INSERT OR IGNORE INTO words (workspace_id, len, word) VALUES (?, ?, ?)');
      documents.forEach(({ workspaceId, document: d }, i) => {
        const rid = i + 1;
        insertDoc.run(rid, d.id, workspaceId, d.title, d.filename, deflateRawSync(d.content), d.mime_type, d.status, d.ocr_confidence, d.size, d.created_at, d.updated_at);
        for (const table of ['fts', 'tri']) insertText(table).run(rid, d.title, d.filename, d.content);
        for (const word of `${d.title} ${d.content}`.toLowerCase().match(/\p{L}{4,}/gu) ?? []) insertWord.run(workspaceId, word.length, word);
      });
      old.prepare(`INSERT INTO docs (rid, id, workspace_id, version, deleted) VALUES (?, ?, ?, 2, 1)`).run(documents.length + 1, document(9).id, OTHER);
      old.close();
    };
    const corpus = [
      { workspaceId: WORKSPACE, document: document(1, { content: 'The supplier invoice INV-2024-004711 is due.' }) },
      { workspaceId: OTHER, document: document(2, { content: 'Another invoice INV-2024-004711 of the other workspace.' }) },
      { workspaceId: WORKSPACE, document: document(3, { title: 'Minutes', mime_type: 'text/plain', content: 'Meeting about the annual report.' }) },
      { workspaceId: OTHER, document: document(4, { title: 'Budget', content: 'Quarterly numbers.' }) },
    ];

    it("keeps each workspace's entries searchable by words, substrings and typos, and nobody else's", async () => {
      // Arrange
      const file = await fileIndex();
      writeUnrangedFile(file, corpus);

      // Act
      const store = new SqliteSearchIndex(file);
      const mine = store.forWorkspace(WORKSPACE);
      const words = await mine.search(request());
      const substring = await mine.search(request({ query: { kind: 'contains', field: 'all', value: '04711' } }));
      const typo = await mine.search(request({ query: { kind: 'term', field: 'all', value: 'suplier' }, fuzzy: true }));
      const others = await store.forWorkspace(OTHER).search(request({ query: { kind: 'term', field: 'all', value: 'invoice' } }));
      const listed = await mine.list({ page: 1, perPage: 20, sort: 'created_at', order: 'asc' });
      store.close();

      // Assert
      expect(ids(words)).toEqual([document(1).id, document(3).id]);
      expect(words.facets.mime_types).toEqual({ 'application/pdf': 1, 'text/plain': 1 });
      expect(ids(substring)).toEqual([document(1).id]);
      expect(ids(typo)).toEqual([document(1).id]);
      expect(ids(others)).toEqual([document(2).id]);
      expect(listed).toEqual({ ids: [document(1).id, document(3).id], total: 2 });
    });

    it("gives the adopted rows their workspace's ranges and keeps tombstones", async () => {
      // Arrange
      const file = await fileIndex();
      writeUnrangedFile(file, corpus);

      // Act: the removed document comes back at its old version (refused), a new one follows the adopted rows
      const store = new SqliteSearchIndex(file);
      await store.forWorkspace(OTHER).upsert(document(9, { title: 'Quarterly report again' }));
      await store.forWorkspace(OTHER).upsert(document(10));
      const others = await store.forWorkspace(OTHER).search(request({ query: { kind: 'term', field: 'all', value: 'quarterly' } }));
      store.close();

      // Assert
      const { rids, slot } = rowidsByWorkspace(file);
      const range = rowidRange(slot(OTHER));
      expect(slot(WORKSPACE)).toBeLessThan(slot(OTHER));
      expect(rids(OTHER)).toEqual([range.first, range.first + 1, range.first + 2, range.first + 3]);
      expect(ids(others).sort()).toEqual([document(2).id, document(4).id, document(10).id]);
    });

    it('adopts the file once: a second opening finds it ranged and changes nothing', async () => {
      // Arrange
      const file = await fileIndex();
      writeUnrangedFile(file, corpus);
      new SqliteSearchIndex(file).close();
      const before = rowidsByWorkspace(file);

      // Act
      const store = new SqliteSearchIndex(file);
      const results = await store.forWorkspace(WORKSPACE).search(request());
      store.close();

      // Assert
      const after = rowidsByWorkspace(file);
      expect(after.rids(WORKSPACE)).toEqual(before.rids(WORKSPACE));
      expect(after.rids(OTHER)).toEqual(before.rids(OTHER));
      expect(ids(results)).toEqual([document(1).id, document(3).id]);
    });
  });
});

/** The schema of the index before row id ranges (workspace column per row, vocabulary keyed by workspace id). */
const UNRANGED_SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
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
CREATE TABLE IF NOT EXISTS words (
  workspace_id TEXT NOT NULL, len INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (workspace_id, len, word)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS docs_workspace ON docs (workspace_id, deleted, created_at);
`;

const termRequest = (query: SearchRequest['query'], overrides: Partial<SearchRequest> = {}) => aSearchRequest({ query, highlight: false, ...overrides });
const tablesOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  const names = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").pluck().all();
  db.close();
  return names.sort();
};

describe('SQLite FTS5 index: full-text tables per workspace', () => {
  const dirs: string[] = [];
  const fileIndex = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'search-tables-'));
    dirs.push(dir);
    return path.join(dir, 'search.sqlite');
  };

  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it("gives each workspace its own tables with its first document, and a search reads only its own workspace's", async () => {
    // Arrange
    const file = await fileIndex();
    const store = new SqliteSearchIndex(file);
    await store.forWorkspace(WORKSPACE).upsert(document(1));
    await store.forWorkspace(OTHER).upsert(document(2, { title: 'Quarterly thesis' }));

    // Act
    const mine = await store.forWorkspace(WORKSPACE).search(termRequest({ kind: 'term', field: 'all', value: 'quarterly' }));
    store.close();

    // Assert
    expect(ids(mine)).toEqual([document(1).id]);
    expect(tablesOf(file)).toEqual(['fts_1', 'fts_2', 'pairs_1', 'pairs_2', 'raw_1', 'raw_2', 'tok_1', 'tok_2']);
  });

  describe('adopting a file whose workspaces share one pair of full-text tables (the previous layout)', () => {
    /** Writes a file as the previous version did: ranged rows, shared `fts` and `tri`, words of 4+ letters only. */
    const writeSharedFile = (file: string, documents: { slot: number; document: IndexedDocument }[]) => {
      const old = new Database(file);
      old.function('inflate_text', { deterministic: true }, (blob: unknown) => (blob ? inflateRawSync(blob as Buffer).toString('utf8') : ''));
      old.pragma(`page_size = ${PAGE_SIZE}`);
      old.pragma('journal_mode = WAL');
      old.exec(SHARED_TABLES_SCHEMA);
      old.prepare('INSERT INTO workspaces (slot, workspace_id) VALUES (1, ?), (2, ?)').run(WORKSPACE, OTHER);
      const insertDoc = old.prepare(
        `INSERT INTO docs (rid, id, slot, version, title, filename, content_z, mime_type, status, ocr_confidence, size, created_at, updated_at)
         VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertText = (table: string) => old.prepare(`INSERT INTO ${table} (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, '', '')`);
      const insertWord = old.prepare('INSERT OR IGNORE INTO words (slot, len, word) VALUES (?, ?, ?)');
      const sequences = new Map<number, number>();
      for (const { slot, document: d } of documents) {
        const sequence = (sequences.get(slot) ?? 0) + 1;
        sequences.set(slot, sequence);
        const rid = rowidRange(slot).base + sequence;
        insertDoc.run(rid, d.id, slot, d.title, d.filename, deflateRawSync(d.content), d.mime_type, d.status, d.ocr_confidence, d.size, d.created_at, d.updated_at);
        for (const table of ['fts', 'tri']) insertText(table).run(rid, d.title, d.filename, d.content);
        for (const word of `${d.title} ${d.content}`.toLowerCase().match(/\p{L}{4,}/gu) ?? []) insertWord.run(slot, word.length, word);
      }
      old.close();
    };
    const corpus = [
      { slot: 1, document: document(1, { content: 'The supplier invoice INV-2024-004711 is due.' }) },
      { slot: 2, document: document(2, { content: 'Another invoice INV-2024-004711 of the other workspace.' }) },
      { slot: 1, document: document(3, { title: 'Minutes', mime_type: 'text/plain', content: 'Meeting about the annual report.' }) },
    ];

    it("keeps each workspace's entries searchable by words, substrings, prefixes and typos, and nobody else's", async () => {
      // Arrange
      const file = await fileIndex();
      writeSharedFile(file, corpus);

      // Act
      const store = new SqliteSearchIndex(file);
      const mine = store.forWorkspace(WORKSPACE);
      const words = await mine.search(termRequest({ kind: 'term', field: 'all', value: 'invoice' }));
      const substring = await mine.search(termRequest({ kind: 'contains', field: 'all', value: '4711' }));
      const prefix = await mine.search(termRequest({ kind: 'term', field: 'all', value: 'supp', prefix: true }));
      const typo = await mine.search(termRequest({ kind: 'term', field: 'all', value: 'meetnig' }, { fuzzy: true }));
      const theirs = await store.forWorkspace(OTHER).search(termRequest({ kind: 'contains', field: 'all', value: '4711' }));
      store.close();

      // Assert
      expect(ids(words)).toEqual([document(1).id]);
      expect(ids(substring)).toEqual([document(1).id]);
      expect(ids(prefix)).toEqual([document(1).id]);
      expect(ids(typo)).toEqual([document(3).id]);
      expect(ids(theirs)).toEqual([document(2).id]);
    });

    it('replaces the shared tables by tables per workspace, once: a second opening changes nothing', async () => {
      // Arrange
      const file = await fileIndex();
      writeSharedFile(file, corpus);
      new SqliteSearchIndex(file).close();
      const adopted = tablesOf(file);

      // Act
      const store = new SqliteSearchIndex(file);
      await store.forWorkspace(WORKSPACE).upsert(document(4, { title: 'Quarterly budget' }));
      const found = await store.forWorkspace(WORKSPACE).search(termRequest({ kind: 'term', field: 'all', value: 'quarterly' }));
      store.close();

      // Assert
      expect(adopted).toEqual(['fts_1', 'fts_2', 'pairs_1', 'pairs_2', 'raw_1', 'raw_2', 'tok_1', 'tok_2']);
      expect(tablesOf(file)).toEqual(adopted);
      expect(found.total).toBe(2);
    });
  });
});

/** The schema of the index before the tables per workspace: ranged row ids, `fts` and `tri` shared by all. */
const SHARED_TABLES_SCHEMA = `
CREATE TABLE IF NOT EXISTS workspaces (slot INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS docs (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  slot INTEGER NOT NULL,
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
CREATE TABLE IF NOT EXISTS words (
  slot INTEGER NOT NULL, len INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (slot, len, word)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS docs_slot ON docs (slot, deleted, created_at);
`;
