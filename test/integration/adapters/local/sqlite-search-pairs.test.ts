import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import { WEIGHTS } from '../../../../shared/adapters/local/sqlite-search-schema';
import type { IndexedDocument, SearchField, SearchRequest, SearchResults } from '../../../../shared/domain/search/ports';
import { aSearchRequest } from '../../../support/builders';

const WORKSPACE = '3a3a0000-0000-4000-8000-000000000001';
const LABEL = '0b0b0000-0000-4000-8000-000000000001';

const document = (n: number, title: string, content: string, overrides: Partial<IndexedDocument> = {}): IndexedDocument => ({
  id: `5a1e0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  version: 1,
  title,
  filename: `file-${n}.pdf`,
  content,
  mime_type: n % 2 ? 'application/pdf' : 'text/plain',
  status: 'completed',
  labels: n % 3 ? [] : [{ id: LABEL, name: 'Of the finance team' }],
  metadata: {},
  ocr_confidence: 0.9,
  size: 1000,
  created_at: `2024-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
  updated_at: `2024-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
  ...overrides,
});

/** Common words in many orders, so that phrases of them match some documents several times and others not at all. */
const CORPUS = [
  document(1, 'The end of the year', 'Out of the office until the end of the month. The report is in the drawer.'),
  document(2, 'Of the many', 'The of the the of the. Of the, of the; OF THE!'),
  document(3, 'Notes', 'In the meantime the supplier sent the invoice for the year.'),
  document(4, 'The year', 'Thes of thes: stemmed as the of the. It is what it is.'),
  document(5, 'Out of office', 'We will be out of the office and out of reach.'),
  document(6, 'Café of the day', 'Le café of the day, naïve ½ of the price, in the Zürich office — out of the blue.'),
  document(7, 'Unrelated', 'Quarterly revenue grew everywhere.'),
  document(8, 'Budget', 'The budget of the department for the year of the audit.'),
];

const phrase = (value: string, field: SearchField = 'all'): SearchRequest['query'] => ({ kind: 'phrase', field, value });
const request = (query: SearchRequest['query'], overrides: Partial<SearchRequest> = {}) => aSearchRequest({ query, highlight: true, ...overrides });

/** What `fts_1` alone answers for a phrase: each match and its BM25 score, best first (ties by row id). */
function wordIndexScores(file: string, value: string, field: SearchField = 'all'): [number, number][] {
  const db = new Database(file, { readonly: true });
  const filter = field === 'all' ? '' : `{${field}} : `;
  const rows = db
    .prepare<[string], [number, number]>(`SELECT rowid, -bm25(fts_1, ${WEIGHTS}) FROM fts_1 WHERE fts_1 MATCH ? ORDER BY 2 DESC, 1`)
    .raw()
    .all(`${filter}"${value.replace(/"/g, '""')}"`);
  db.close();
  return rows;
}

/** The hits of a search as (document number, score), in its order. */
const scored = (results: SearchResults) => results.results.map((hit) => [Number(hit.document_id.slice(-12)), hit.score]);

describe('SQLite FTS5 index: the phrase index of common word pairs', () => {
  const dirs: string[] = [];
  const fileIndex = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'search-pairs-'));
    dirs.push(dir);
    return path.join(dir, 'search.sqlite');
  };
  const indexed = async (documents = CORPUS) => {
    const file = await fileIndex();
    const store = new SqliteSearchIndex(file, { readers: 0 });
    store.forWorkspace(WORKSPACE).upsertMany(documents);
    return { file, store };
  };
  /** Row ids are the workspace's range base plus the document's sequence, which here is its number. */
  const byDocument = (rows: [number, number][]) => rows.map(([rid, score]) => [rid % 2 ** 32, score]);

  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it.each([['of the'], ['the of'], ['out of the'], ['of the the'], ['in the'], ['it is what it is']])(
    'finds and scores the phrase "%s" as the word index does, with the same total',
    async (value) => {
      // Arrange
      const { file, store } = await indexed();

      // Act
      const results = await store.forWorkspace(WORKSPACE).search(request(phrase(value)));
      store.close();

      // Assert
      const expected = byDocument(wordIndexScores(file, value));
      expect(expected.length).toBeGreaterThan(0);
      expect(scored(results)).toEqual(expected);
      expect(results.total).toBe(expected.length);
    },
  );

  it('scores a phrase of common words as the word index does when reader threads rank it', async () => {
    // Arrange
    const file = await fileIndex();
    const store = new SqliteSearchIndex(file, { readers: 2, readersFromDocuments: 1 });
    store.forWorkspace(WORKSPACE).upsertMany(CORPUS);

    // Act
    const results = await store.forWorkspace(WORKSPACE).search(request(phrase('of the')));
    store.close();

    // Assert
    expect(scored(results)).toEqual(byDocument(wordIndexScores(file, 'of the')));
  });

  it('keeps a phrase of common words to the words in that order', async () => {
    // Arrange
    const { store } = await indexed();

    // Act
    const results = await store.forWorkspace(WORKSPACE).search(request(phrase('out of the')));
    store.close();

    // Assert
    expect(results.results.map((hit) => Number(hit.document_id.slice(-12))).sort()).toEqual([1, 5, 6]);
  });

  it('scores a phrase within one field as the word index does', async () => {
    // Arrange
    const { file, store } = await indexed();

    // Act
    const inTitles = await store.forWorkspace(WORKSPACE).search(request(phrase('of the', 'title')));
    const inLabels = await store.forWorkspace(WORKSPACE).search(request(phrase('of the', 'labels')));
    store.close();

    // Assert
    expect(scored(inTitles)).toEqual(byDocument(wordIndexScores(file, 'of the', 'title')));
    expect(scored(inLabels)).toEqual(byDocument(wordIndexScores(file, 'of the', 'labels')));
    expect(inLabels.total).toBe(2);
  });

  it('counts facets and marks highlights of a phrase of common words', async () => {
    // Arrange
    const { store } = await indexed();

    // Act
    const results = await store.forWorkspace(WORKSPACE).search(request(phrase('out of the')));
    store.close();

    // Assert
    expect(results.facets).toEqual({ mime_types: { 'application/pdf': 2, 'text/plain': 1 }, labels: { [LABEL]: 1 } });
    const hit = results.results.find((result) => result.document_id === CORPUS[4]!.id)!;
    expect(hit.highlights).toContainEqual({ field: 'content', snippet: expect.stringContaining('<mark>out of the</mark>') });
  });

  it('keeps its scores equal to the word index after documents are changed and removed', async () => {
    // Arrange
    const { file, store } = await indexed();
    const view = store.forWorkspace(WORKSPACE);
    await view.upsert({ ...CORPUS[2]!, version: 2, content: 'Nothing common here.' });
    await view.upsert({ ...CORPUS[6]!, version: 2, content: 'Now one of the documents too, of the many.' });
    await view.remove(CORPUS[0]!.id, 1);

    // Act
    const results = await view.search(request(phrase('of the')));
    store.close();

    // Assert
    expect(scored(results)).toEqual(byDocument(wordIndexScores(file, 'of the')));
    expect(results.results.map((hit) => hit.document_id)).not.toContain(CORPUS[0]!.id);
  });

  it('finds a phrase the same way in text with accents, fractions and dashes (tokenized by FTS5 itself)', async () => {
    // Arrange
    const { file, store } = await indexed();

    // Act
    const results = await store.forWorkspace(WORKSPACE).search(request(phrase('of the')));
    store.close();

    // Assert
    expect(scored(results)).toContainEqual(byDocument(wordIndexScores(file, 'of the')).find(([n]) => n === 6));
  });

  it('orders a phrase of common words by another sort with a filter as the general query does', async () => {
    // Arrange
    const { store } = await indexed();

    // Act
    const results = await store
      .forWorkspace(WORKSPACE)
      .search(request(phrase('of the'), { sort: [{ field: 'created_at', order: 'asc' }], filters: { mimeTypes: ['application/pdf'] } }));
    store.close();

    // Assert
    expect(results.results.map((hit) => Number(hit.document_id.slice(-12)))).toEqual([1, 3, 5]);
    expect(results.total).toBe(3);
  });

  describe('adopting a file written before the pair tables', () => {
    it('builds each workspace its pair table on first start, with the same phrase results, and once', async () => {
      // Arrange
      const { file, store } = await indexed();
      const before = await store.forWorkspace(WORKSPACE).search(request(phrase('of the')));
      store.close();
      const old = new Database(file);
      old.exec('DROP TABLE pairs_1');
      old.close();

      // Act
      const adopted = new SqliteSearchIndex(file, { readers: 0 });
      const after = await adopted.forWorkspace(WORKSPACE).search(request(phrase('of the')));
      adopted.close();
      const reopened = new SqliteSearchIndex(file, { readers: 0 });
      const again = await reopened.forWorkspace(WORKSPACE).search(request(phrase('of the')));
      reopened.close();

      // Assert
      expect(after).toEqual(before);
      expect(again).toEqual(before);
      const db = new Database(file, { readonly: true });
      expect(db.prepare('SELECT count(*) FROM pairs_1').pluck().get()).toBe(CORPUS.length);
      db.close();
    });

    it('rebuilds the pair tables of a file written with another list of common words', async () => {
      // Arrange
      const { file, store } = await indexed();
      const before = await store.forWorkspace(WORKSPACE).search(request(phrase('of the')));
      store.close();
      const old = new Database(file);
      old.exec("INSERT INTO pairs_1 (pairs_1) VALUES ('delete-all'); UPDATE pair_words SET words = 'of the'");
      old.close();

      // Act
      const adopted = new SqliteSearchIndex(file, { readers: 0 });
      const after = await adopted.forWorkspace(WORKSPACE).search(request(phrase('of the')));
      adopted.close();

      // Assert
      expect(after).toEqual(before);
    });
  });
});
