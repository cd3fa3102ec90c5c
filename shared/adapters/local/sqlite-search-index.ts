import { availableParallelism } from 'node:os';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type {
  IndexedDocument,
  QueryNode,
  SearchField,
  SearchFilters,
  SearchHit,
  SearchIndex,
  SearchRequest,
  SearchResults,
  SearchSortField,
} from '../../domain/search/ports';
import type { DocumentListingIndex, DocumentQuery } from '../../domain/documents/ports';
import { FacetColumns, type FacetEntry } from './search-facet-columns';
import { SqliteReadPool } from './sqlite-read-pool';
import { escapeHtml, fuzzyDistance, MARK_CLOSE, MARK_OPEN, markedToHtml, maxEdits, stripMarkers, withinEdits } from '../../domain/search/text';

/** The indexed text columns, in table order, with their BM25 weights (a title hit counts ten content hits). */
const COLUMNS = ['title', 'filename', 'content', 'labels', 'metadata'] as const;
type Column = (typeof COLUMNS)[number];
const WEIGHTS = '10.0, 5.0, 1.0, 3.0, 2.0';

/** Tokens of a content snippet around the matches (FTS5 allows at most 64). */
const SNIPPET_TOKENS = 24;
/** Characters of content shown around a `contains` match, on each side. */
const CONTAINS_CONTEXT = 80;
/** Fuzzy alternatives of one word, at most: the closest are kept, so a query's work stays bounded. */
const MAX_FUZZY_ALTERNATIVES = 20;
/** Rows read past a relevance page, so that a run of equal scores at its end can still be ordered by id. */
const TIE_MARGIN = 50;
/** Reader threads that rank shards of a query in parallel: one per core, up to this many. */
const MAX_READERS = 4;

/**
 * The text columns live in `docs` (the content deflated: it is most of the bytes), and `fts` is an
 * external-content table reading them through the `fts_source` view, which inflates the content with a function
 * every connection of this adapter registers. The index thus holds the text once, compressed.
 */
const SCHEMA = `
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

/** Pages of 32 KB hold many 2 KB rows each (4 KB pages would hold one, half empty). Set before the first table. */
const PAGE_SIZE = 32_768;

const inflateText = (blob: Buffer | null): string => (blob ? inflateRawSync(blob).toString('utf8') : '');

interface PageRow {
  rid: number;
  id: string;
  title: string;
  score: number;
}

/** What a committed write changes in the in-memory facet columns. */
type FacetChange = { rid: number; entry: FacetEntry | null };

interface DocRow {
  rid: number;
  version: number;
  deleted: number;
}

type SqlValue = string | number | null;

interface Sql {
  sql: string;
  params: SqlValue[];
}

/** The text of each column as the index stores it; the markers of highlights are taken out of it first. */
function columnsOf(document: IndexedDocument): Record<Column, string> {
  return {
    title: stripMarkers(document.title),
    filename: stripMarkers(document.filename),
    content: stripMarkers(document.content),
    labels: stripMarkers(document.labels.map((label) => label.name).join('\n')),
    metadata: stripMarkers(metadataValues(document).join('\n')),
  };
}

const metadataValues = (document: IndexedDocument): string[] =>
  Object.values(document.metadata)
    .filter((value) => value !== null)
    .map(String);

/** Words a fuzzy query may be corrected to: lower case, without diacritics, with a letter, 4 to 40 long. */
function vocabulary(text: string): string[] {
  const words = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => word.length >= 4 && word.length <= 40 && /\p{L}/u.test(word));
}

/** An FTS5 string. Its query parser reads C strings, so a NUL would end it mid-way ("unterminated string"):
 * it is a separator here, as the tokenizers treat it. */
const quote = (value: string) => `"${value.replace(/"/g, '""').replace(/\0/g, ' ')}"`;
const columnFilter = (field: SearchField) => (field === 'all' ? '' : `{${field}} : `);

/**
 * The local SearchIndex: SQLite FTS5 in one file (under DATA_DIR) or in memory.
 * - `fts`: porter + unicode61 over title, filename, content, label names and metadata values; BM25 with column
 *   weights; phrases, prefixes and highlights come from FTS5 itself.
 * - `tri`: a contentless trigram table over the same columns, for `contains` (substrings of words and numbers).
 * - `words`: the vocabulary, for fuzzy queries (a word becomes itself OR its close spellings, by edit distance).
 * - `docs`: the filterable and sortable fields, the version of each document and the tombstones of removed ones.
 * Writes are synchronous transactions, so an upsert is atomic and versions are compared and written as one.
 */
/** Listing sorts and their columns; text sorts ignore case, as the table's own listing does. */
const LISTING_ORDER: Record<DocumentQuery['sort'], string> = {
  created_at: 'd.created_at',
  updated_at: 'd.updated_at',
  title: 'd.title COLLATE NOCASE',
  filename: 'd.filename COLLATE NOCASE',
  size: 'd.size',
};

export interface SqliteSearchIndexOptions {
  /**
   * Reader threads for ranking (a file only; none in memory). Default: one per core up to 4, none on one core.
   * A broad word ranks most of the index; split by row id over the cores it takes a fraction of the time.
   */
  readers?: number;
}

export class SqliteSearchIndex implements SearchIndex, DocumentListingIndex {
  private readonly db: Database.Database;
  private readerCount: number;
  /** Started on the first ranked search, so that an index that is only written never starts threads. */
  private pool: SqliteReadPool | null = null;
  private readonly knownWords = new Set<string>();
  private readonly columns = new FacetColumns();
  private readonly statements;

  constructor(
    private readonly path: string,
    options: SqliteSearchIndexOptions = {},
  ) {
    const cores = availableParallelism();
    this.readerCount = path === ':memory:' ? 0 : (options.readers ?? (cores > 1 ? Math.min(cores, MAX_READERS) : 0));
    this.db = new Database(path);
    this.db.function('inflate_text', { deterministic: true }, (blob: unknown) => inflateText(blob as Buffer | null));
    this.db.pragma(`page_size = ${PAGE_SIZE}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.statements = {
      current: this.db.prepare<[string], DocRow>('SELECT rid, version, deleted FROM docs WHERE id = ?'),
      maxRid: this.db.prepare<[], number | null>('SELECT max(rid) FROM docs').pluck(),
      insertDoc: this.db.prepare(
        `INSERT INTO docs (id, version, deleted, title, filename, content_z, labels_text, metadata_text, mime_type, status, ocr_confidence, size,
           created_at, updated_at, label_ids, label_names, metadata_values)
         VALUES (@id, @version, 0, @title, @filename, @content_z, @labels_text, @metadata_text, @mime_type, @status, @ocr_confidence, @size,
           @created_at, @updated_at, @label_ids, @label_names, @metadata_values)`,
      ),
      updateDoc: this.db.prepare(
        `UPDATE docs SET version = @version, deleted = 0, title = @title, filename = @filename, content_z = @content_z, labels_text = @labels_text,
           metadata_text = @metadata_text, mime_type = @mime_type, status = @status, ocr_confidence = @ocr_confidence, size = @size,
           created_at = @created_at, updated_at = @updated_at, label_ids = @label_ids, label_names = @label_names, metadata_values = @metadata_values
         WHERE rid = @rid`,
      ),
      tombstone: this.db.prepare(
        `INSERT INTO docs (id, version, deleted) VALUES (?, ?, 1)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version, deleted = 1, title = '', filename = '', content_z = NULL, labels_text = '',
           metadata_text = '', label_ids = '[]', label_names = '[]', metadata_values = '[]'`,
      ),
      indexed: this.db.prepare<[number], Record<Column, string>>('SELECT title, filename, content, labels, metadata FROM fts_source WHERE rid = ?'),
      insertFts: this.db.prepare('INSERT INTO fts (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteFts: this.db.prepare(`INSERT INTO fts (fts, rowid, title, filename, content, labels, metadata) VALUES ('delete', ?, ?, ?, ?, ?, ?)`),
      insertTri: this.db.prepare('INSERT INTO tri (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteTri: this.db.prepare('DELETE FROM tri WHERE rowid = ?'),
      insertWord: this.db.prepare('INSERT OR IGNORE INTO words (len, word) VALUES (?, ?)'),
      wordsOfLength: this.db.prepare<[number, number], string>('SELECT word FROM words WHERE len BETWEEN ? AND ?').pluck(),
    };
    const live = this.db.prepare<[], { rid: number; mime_type: string; status: string; ocr_confidence: number | null; created_at: string; label_ids: string }>(
      'SELECT rid, mime_type, status, ocr_confidence, created_at, label_ids FROM docs WHERE deleted = 0',
    );
    for (const row of live.iterate()) this.columns.set(row.rid, facetEntry(row));
  }

  /** Upserts many documents in one transaction: what a rebuild or a benchmark wants. */
  upsertMany(documents: IndexedDocument[]): void {
    const changes = this.db.transaction(() => documents.map((document) => this.write(document)))();
    for (const change of changes) this.apply(change);
  }

  async upsert(document: IndexedDocument): Promise<void> {
    this.apply(this.db.transaction(() => this.write(document))());
  }

  async remove(documentId: string, version: number): Promise<void> {
    const change = this.db.transaction((): FacetChange | null => {
      const current = this.statements.current.get(documentId);
      // The tombstone holds the version after the removal: upserts up to `version` stay out, a newer one wins.
      if (current && current.version > version + 1) return null;
      if (current && !current.deleted) this.unindex(current.rid);
      this.statements.tombstone.run(documentId, version + 1);
      return current ? { rid: current.rid, entry: null } : null;
    })();
    this.apply(change);
  }

  async clear(): Promise<void> {
    this.db.exec(`INSERT INTO fts (fts) VALUES ('delete-all'); DELETE FROM tri; DELETE FROM docs; DELETE FROM words;`);
    this.knownWords.clear();
    this.columns.clear();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  /**
   * A filtered or sorted document listing from the documents table of the index (no full-text work): the
   * page's ids and the total. Null for a source filter, which the index does not hold.
   */
  async list(query: DocumentQuery): Promise<{ ids: string[]; total: number } | null> {
    if (query.sourceId) return null;
    const parts: string[] = ['d.deleted = 0'];
    const params: SqlValue[] = [];
    if (query.status) {
      parts.push('d.status = ?');
      params.push(query.status);
    }
    for (const label of new Set(query.labelIds ?? [])) {
      parts.push('EXISTS (SELECT 1 FROM json_each(d.label_ids) WHERE value = ?)');
      params.push(label);
    }
    if (query.createdFrom) {
      parts.push('d.created_at >= ?');
      params.push(query.createdFrom);
    }
    if (query.createdTo) {
      parts.push('d.created_at <= ?');
      params.push(query.createdTo);
    }
    const where = parts.join(' AND ');
    const direction = query.order === 'asc' ? 'ASC' : 'DESC';
    const { total } = this.db.prepare(`SELECT count(*) AS total FROM docs AS d WHERE ${where}`).get(...params) as { total: number };
    const rows = this.db
      .prepare(`SELECT d.id FROM docs AS d WHERE ${where} ORDER BY ${LISTING_ORDER[query.sort]} ${direction}, d.id ${direction} LIMIT ? OFFSET ?`)
      .all(...params, query.perPage, (query.page - 1) * query.perPage) as { id: string }[];
    return { ids: rows.map((row) => row.id), total };
  }

  close(): void {
    void this.pool?.close();
    this.pool = null;
    this.db.close();
  }

  /**
   * Merges the full-text indexes into one segment each and compacts the file: after a rebuild, or any bulk load.
   * Incremental writes are merged by FTS5 itself as they go.
   */
  optimize(): void {
    this.db.exec(`INSERT INTO fts (fts) VALUES ('optimize'); INSERT INTO tri (tri) VALUES ('optimize');`);
    this.db.exec('VACUUM');
  }

  /** Moves the WAL into the main file, so that the file's size is the index's size. */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** Bytes in the file, with the trigram table and the fuzzy vocabulary also counted apart (bench/search.ts). */
  sizeOnDisk(): { total: number; trigram: number; words: number } {
    const rows = this.db.prepare<[], { name: string; bytes: number }>('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all();
    const sum = (match: (name: string) => boolean) => rows.filter((row) => match(row.name)).reduce((total, row) => total + row.bytes, 0);
    return {
      total: sum(() => true),
      trigram: sum((name) => name === 'tri' || name.startsWith('tri_')),
      words: sum((name) => name === 'words'),
    };
  }

  /**
   * Takes a row out of both full-text tables. An external-content table forgets a row by being told the exact
   * text it indexed, read back here before the row changes.
   */
  private unindex(rid: number): void {
    const old = this.statements.indexed.get(rid);
    if (old) this.statements.deleteFts.run(rid, ...COLUMNS.map((column) => old[column]));
    this.statements.deleteTri.run(rid);
  }

  /** Applies a committed write to the in-memory facet columns (never before the commit, which may roll back). */
  private apply(change: FacetChange | null): void {
    if (!change) return;
    if (change.entry) this.columns.set(change.rid, change.entry);
    else this.columns.delete(change.rid);
  }

  private write(document: IndexedDocument): FacetChange | null {
    const current = this.statements.current.get(document.id);
    if (current && current.version > document.version) return null;
    const text = columnsOf(document);
    const row = {
      id: document.id,
      version: document.version,
      title: text.title,
      filename: text.filename,
      content_z: text.content ? deflateRawSync(text.content) : null,
      labels_text: text.labels,
      metadata_text: text.metadata,
      mime_type: document.mime_type,
      status: document.status,
      ocr_confidence: document.ocr_confidence,
      size: document.size,
      created_at: document.created_at,
      updated_at: document.updated_at,
      label_ids: JSON.stringify(document.labels.map((label) => label.id)),
      label_names: JSON.stringify(document.labels.map((label) => label.name.toLowerCase())),
      metadata_values: JSON.stringify(metadataValues(document).map((value) => value.toLowerCase())),
    };
    let rid: number;
    if (current) {
      rid = current.rid;
      if (!current.deleted) this.unindex(rid);
      this.statements.updateDoc.run({ ...row, rid });
    } else {
      rid = Number(this.statements.insertDoc.run(row).lastInsertRowid);
    }
    const values = COLUMNS.map((column) => text[column]);
    this.statements.insertFts.run(rid, ...values);
    this.statements.insertTri.run(rid, ...values);
    for (const word of vocabulary(values.join(' '))) {
      if (this.knownWords.has(word)) continue;
      this.knownWords.add(word);
      this.statements.insertWord.run(word.length, word);
    }
    return { rid, entry: facetEntry(row) };
  }

  /**
   * Three steps, each on the cheapest store: the match set's rowids from one SQLite pass (`group_concat`, no
   * row goes to JS one by one), the total and facets counted over them in memory, and the page ranked by
   * SQLite (FTS5's own BM25 sort when nothing else constrains the order, so only the page leaves SQLite).
   */
  async search(request: SearchRequest): Promise<SearchResults> {
    const plan = new QueryPlan(request, (word) => this.fuzzyAlternatives(word));
    const offset = (request.page - 1) * request.perPage;
    // Started first: the reader threads rank while this thread counts.
    const ranked = plan.rankedByFts() ? this.pageByFtsRank(plan, offset, request.perPage) : Promise.resolve(null);
    // Should the count below throw first, the ranking's own failure must not go unhandled.
    ranked.catch(() => undefined);
    const matchSet = plan.matchSet();
    const rids = parseRowids(this.db.prepare<SqlValue[], string | null>(matchSet.sql).pluck().get(...matchSet.params) ?? null);
    const { total, facets } = this.columns.count(rids, request.filters);
    const hits = (await ranked) ?? (total ? this.page(plan, request, offset) : []);
    const highlights = request.highlight ? this.highlights(plan, hits.map((hit) => hit.rid)) : new Map<number, SearchHit['highlights']>();
    return {
      results: hits.map((hit) => ({ document_id: hit.id, title: hit.title, score: hit.score, highlights: highlights.get(hit.rid) ?? [] })),
      total,
      facets,
    };
  }

  /** The requested page of hits, in the requested order; ties are broken by id so that pages never overlap. */
  private page(plan: QueryPlan, request: SearchRequest, offset: number): PageRow[] {
    const matches = plan.matches();
    const order = orderBy(request.sort);
    return this.db
      .prepare<SqlValue[], PageRow>(`SELECT rid, id, title, score FROM (${matches.sql}) ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...matches.params, request.perPage, offset);
  }

  /**
   * A relevance page straight from FTS5's BM25 sort, which keeps only the best rows instead of sorting every
   * match. Rows past the page are read too, so that equal scores can be ordered by id as the general query
   * orders them; null when a run of equal scores reaches past what was read (the caller then takes the general
   * query).
   */
  private async pageByFtsRank(plan: QueryPlan, offset: number, perPage: number): Promise<PageRow[] | null> {
    const end = offset + perPage;
    const limit = end + TIE_MARGIN;
    const ranked = await this.bestByBm25(plan.wordsExpression(), limit);
    if (ranked.length === limit && ranked[limit - 1]!.score === ranked[end - 1]!.score) return null;
    const names = this.namesOf(ranked.map((row) => row.rid));
    return ranked
      .flatMap((row) => {
        // A document removed since the readers' snapshot is left out.
        const name = names.get(row.rid);
        return name ? [{ ...row, ...name }] : [];
      })
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(offset, end);
  }

  /**
   * The `limit` best matches by BM25, best first. With reader threads, each ranks one range of row ids and the
   * best of their bests are the best overall (BM25's statistics are the whole table's in every range).
   */
  private async bestByBm25(expression: string, limit: number): Promise<{ rid: number; score: number }[]> {
    const select = `SELECT rowid AS rid, -bm25(fts, ${WEIGHTS}) AS score FROM fts WHERE fts MATCH ?`;
    const order = `ORDER BY bm25(fts, ${WEIGHTS}) LIMIT ?`;
    const pool = this.readers();
    if (pool) {
      const last = this.statements.maxRid.get() ?? 0;
      const span = Math.ceil((last + 1) / pool.size);
      try {
        const shards = await pool.allOnEach<{ rid: number; score: number }>(
          Array.from({ length: pool.size }, (_, i) => ({
            sql: `${select} AND rowid BETWEEN ? AND ? ${order}`,
            params: [expression, i * span, (i + 1) * span - 1, limit],
          })),
        );
        return shards
          .flat()
          .sort((a, b) => b.score - a.score)
          .slice(0, limit);
      } catch {
        // A reader that failed (or a pool that died) is not worth failing the search: this thread ranks instead.
      }
    }
    return this.db.prepare<[string, number], { rid: number; score: number }>(`${select} ${order}`).all(expression, limit);
  }

  private readers(): SqliteReadPool | null {
    if (this.pool && !this.pool.usable) {
      // Threads that died once would die again: this index ranks in its own thread from now on.
      this.pool = null;
      this.readerCount = 0;
    }
    if (!this.pool && this.readerCount > 0) this.pool = new SqliteReadPool(this.path, this.readerCount);
    return this.pool;
  }

  private namesOf(rids: number[]): Map<number, { id: string; title: string }> {
    if (!rids.length) return new Map();
    const rows = this.db
      .prepare<number[], { rid: number; id: string; title: string }>(`SELECT rid, id, title FROM docs WHERE rid IN (${rids.map(() => '?').join(', ')})`)
      .all(...rids);
    return new Map(rows.map((row) => [row.rid, row]));
  }

  /** Snippets of the page's documents: FTS5 marks words and phrases; `contains` values are marked here. */
  private highlights(plan: QueryPlan, rids: number[]): Map<number, SearchHit['highlights']> {
    const result = new Map<number, SearchHit['highlights']>();
    if (!rids.length) return result;
    const placeholders = rids.map(() => '?').join(', ');
    const marked = new Map<number, Record<Column, string>>();
    const wordExpression = plan.highlightExpression();
    if (wordExpression) {
      const rows = this.db
        .prepare<SqlValue[], Record<Column, string> & { rid: number }>(
          `SELECT rowid AS rid,
             highlight(fts, 0, ?, ?) AS title, highlight(fts, 1, ?, ?) AS filename,
             snippet(fts, 2, ?, ?, '…', ${SNIPPET_TOKENS}) AS content,
             highlight(fts, 3, ?, ?) AS labels, highlight(fts, 4, ?, ?) AS metadata
           FROM fts WHERE fts MATCH ? AND rowid IN (${placeholders})`,
        )
        .all(...Array.from({ length: 5 }, () => [MARK_OPEN, MARK_CLOSE]).flat(), wordExpression, ...rids);
      for (const row of rows) marked.set(row.rid, row);
    }
    const substrings = plan.containsValues();
    const texts = substrings.length
      ? new Map(
          this.db
            .prepare<number[], Record<Column, string> & { rid: number }>(
              `SELECT rid, title, filename, content, labels, metadata FROM fts_source WHERE rid IN (${placeholders})`,
            )
            .all(...rids)
            .map((row) => [row.rid, row]),
        )
      : new Map<number, Record<Column, string>>();
    for (const rid of rids) {
      const snippets: SearchHit['highlights'] = [];
      for (const column of COLUMNS) {
        const fromWords = marked.get(rid)?.[column];
        if (fromWords?.includes(MARK_OPEN)) {
          snippets.push({ field: column, snippet: markedToHtml(fromWords) });
          continue;
        }
        const text = texts.get(rid)?.[column];
        const values = substrings.filter((value) => value.field === 'all' || value.field === column).map((value) => value.value);
        const snippet = text && values.length ? containsSnippet(text, values, column === 'content') : null;
        if (snippet) snippets.push({ field: column, snippet });
      }
      result.set(rid, snippets);
    }
    return result;
  }

  private fuzzyAlternatives(word: string): string[] {
    const normalized = word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    const edits = maxEdits(normalized.length);
    if (!edits || !/^[\p{L}\p{N}]+$/u.test(normalized)) return [];
    const candidates = this.statements.wordsOfLength.all(normalized.length - edits, normalized.length + edits);
    return candidates
      .filter((candidate) => candidate !== normalized && withinEdits(normalized, candidate, edits))
      .map((candidate) => ({ candidate, distance: fuzzyDistance(normalized, candidate) }))
      .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
      .slice(0, MAX_FUZZY_ALTERNATIVES)
      .map(({ candidate }) => candidate);
  }
}

/** A snippet with every occurrence of the values marked (case-insensitive), escaped; null when none occurs. */
function containsSnippet(text: string, values: string[], excerpt: boolean): string | null {
  const lower = text.toLowerCase();
  const ranges: [number, number][] = [];
  for (const value of values) {
    const needle = value.toLowerCase();
    for (let at = lower.indexOf(needle); at >= 0 && needle; at = lower.indexOf(needle, at + needle.length)) ranges.push([at, at + needle.length]);
  }
  if (!ranges.length) return null;
  ranges.sort((a, b) => a[0] - b[0]);
  const start = excerpt ? Math.max(0, ranges[0]![0] - CONTAINS_CONTEXT) : 0;
  const end = excerpt ? Math.min(text.length, ranges[0]![1] + CONTAINS_CONTEXT) : text.length;
  let out = start > 0 ? '…' : '';
  let cursor = start;
  for (const [from, to] of ranges) {
    if (from < cursor || to > end) continue;
    out += `${escapeHtml(text.slice(cursor, from))}<mark>${escapeHtml(text.slice(from, to))}</mark>`;
    cursor = to;
  }
  out += escapeHtml(text.slice(cursor, end)) + (end < text.length ? '…' : '');
  return out;
}

const SORT_COLUMNS: Record<SearchSortField, string> = {
  relevance: 'score',
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'title COLLATE NOCASE',
  size: 'size',
};

/** ORDER BY of the requested sort; the id breaks ties so that every order is total and pages never overlap. */
function orderBy(sort: SearchRequest['sort']): string {
  const keys = sort.map((key) => `${SORT_COLUMNS[key.field]} ${key.order === 'asc' ? 'ASC' : 'DESC'}`);
  return [...keys, 'id ASC'].join(', ');
}

/** Whether a whole subtree can be one FTS5 expression (words, phrases and prefixes with AND, OR, NOT). */
function isWords(node: QueryNode): boolean {
  switch (node.kind) {
    case 'term':
    case 'phrase':
      return true;
    case 'contains':
    case 'exact':
      return false;
    case 'not':
      return isWords(node.child);
    case 'or':
      return node.children.every(isWords);
    case 'and':
      return node.children.every(isWords) && node.children.some((child) => child.kind !== 'not');
  }
}

/** Turns a request into SQL over `docs d`: the match set with a score, and the expressions for highlights. */
class QueryPlan {
  constructor(
    private readonly request: SearchRequest,
    private readonly alternatives: (word: string) => string[],
  ) {}

  /** One row: the rowids of every match as a comma-separated list, before filters (counted in memory). */
  matchSet(): Sql {
    const { query } = this.request;
    if (isWords(query)) return { sql: 'SELECT group_concat(rowid) FROM fts WHERE fts MATCH ?', params: [this.words(query)] };
    const condition = this.condition(query);
    return { sql: `SELECT group_concat(d.rid) FROM docs AS d WHERE d.deleted = 0 AND ${condition.sql}`, params: condition.params };
  }

  /** Whether FTS5 alone can order the page: words only, by relevance, nothing filtered (its rows are all live). */
  rankedByFts(): boolean {
    const { query, sort, filters } = this.request;
    const bySort = sort.length === 1 && sort[0]!.field === 'relevance' && sort[0]!.order === 'desc';
    return bySort && isWords(query) && !filterSql(filters).sql;
  }

  /** The FTS5 expression of a words-only query. */
  wordsExpression(): string {
    return this.words(this.request.query);
  }

  /** SELECT of the matching documents (rid, id, title, score and the sort keys), filters applied. */
  matches(): Sql {
    const filters = filterSql(this.request.filters);
    const columns = 'd.rid, d.id, d.title, d.created_at, d.updated_at, d.size';
    const { query } = this.request;
    if (isWords(query)) {
      return {
        sql: `SELECT ${columns}, -bm25(fts, ${WEIGHTS}) AS score FROM fts JOIN docs AS d ON d.rid = fts.rowid
              WHERE fts MATCH ? AND d.deleted = 0${filters.sql}`,
        params: [this.words(query), ...filters.params],
      };
    }
    const condition = this.condition(query);
    const wordScore = this.highlightExpression();
    const containsScore = this.containsExpression();
    const joins: string[] = [];
    const params: SqlValue[] = [];
    if (wordScore) {
      joins.push(`LEFT JOIN (SELECT rowid AS rid, -bm25(fts, ${WEIGHTS}) AS s FROM fts WHERE fts MATCH ?) AS ws ON ws.rid = d.rid`);
      params.push(wordScore);
    }
    if (containsScore) {
      joins.push(`LEFT JOIN (SELECT rowid AS rid, -bm25(tri, ${WEIGHTS}) AS s FROM tri WHERE tri MATCH ?) AS cs ON cs.rid = d.rid`);
      params.push(containsScore);
    }
    const score = [wordScore ? 'coalesce(ws.s, 0)' : null, containsScore ? 'coalesce(cs.s, 0)' : null].filter(Boolean).join(' + ') || '0';
    return {
      sql: `SELECT ${columns}, ${score} AS score FROM docs AS d ${joins.join(' ')}
            WHERE d.deleted = 0 AND ${condition.sql}${filters.sql}`,
      params: [...params, ...condition.params, ...filters.params],
    };
  }

  /** Every positive word, phrase and prefix as one OR: it scores mixed queries and marks highlights. */
  highlightExpression(): string | null {
    const leaves = positiveLeaves(this.request.query).filter((leaf) => leaf.kind === 'term' || leaf.kind === 'phrase');
    return leaves.length ? leaves.map((leaf) => this.words(leaf)).join(' OR ') : null;
  }

  containsValues(): { field: SearchField; value: string }[] {
    return positiveLeaves(this.request.query).flatMap((leaf) => (leaf.kind === 'contains' ? [{ field: leaf.field, value: leaf.value }] : []));
  }

  private containsExpression(): string | null {
    const values = this.containsValues();
    return values.length ? values.map((value) => `${columnFilter(value.field)}${quote(value.value)}`).join(' OR ') : null;
  }

  /** The FTS5 expression of a words-only subtree. FTS5's NOT is binary ("a NOT b"), hence the grouping. */
  private words(node: QueryNode): string {
    switch (node.kind) {
      case 'term': {
        if (node.prefix) return `${columnFilter(node.field)}${quote(node.value)} *`;
        const alternatives = this.request.fuzzy ? this.alternatives(node.value) : [];
        if (!alternatives.length) return `${columnFilter(node.field)}${quote(node.value)}`;
        return `${columnFilter(node.field)}(${[node.value, ...alternatives].map(quote).join(' OR ')})`;
      }
      case 'phrase':
        return `${columnFilter(node.field)}${quote(node.value)}`;
      case 'or':
        return `(${node.children.map((child) => this.words(child)).join(' OR ')})`;
      case 'and': {
        const positive = node.children.filter((child) => child.kind !== 'not');
        const negative = node.children.flatMap((child) => (child.kind === 'not' ? [child.child] : []));
        let expression = `(${positive.map((child) => this.words(child)).join(' AND ')})`;
        for (const child of negative) expression = `(${expression} NOT ${this.words(child)})`;
        return expression;
      }
      case 'not':
      case 'contains':
      case 'exact':
        throw new Error(`${node.kind} is not a words expression`);
    }
  }

  /** A boolean SQL condition on `d` for any tree: words through FTS5, substrings through the trigram table. */
  private condition(node: QueryNode): Sql {
    if (node.kind !== 'not' && isWords(node)) return { sql: 'd.rid IN (SELECT rowid FROM fts WHERE fts MATCH ?)', params: [this.words(node)] };
    switch (node.kind) {
      case 'contains':
        return { sql: 'd.rid IN (SELECT rowid FROM tri WHERE tri MATCH ?)', params: [`${columnFilter(node.field)}${quote(node.value)}`] };
      case 'exact':
        return exactSql(node.field, node.value);
      case 'not': {
        const inner = this.condition(node.child);
        return { sql: `NOT (${inner.sql})`, params: inner.params };
      }
      case 'and':
      case 'or': {
        const parts = node.children.map((child) => this.condition(child));
        return { sql: `(${parts.map((part) => part.sql).join(node.kind === 'and' ? ' AND ' : ' OR ')})`, params: parts.flatMap((part) => part.params) };
      }
      default:
        throw new Error(`unexpected ${node.kind}`);
    }
  }
}

/** The leaves that must or may match (not under a NOT): what a hit is scored and highlighted by. */
function positiveLeaves(node: QueryNode): QueryNode[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(positiveLeaves);
    case 'not':
      return [];
    default:
      return [node];
  }
}

/** `exact`: the whole field equals the value, case-insensitively (any label name, any metadata value). */
function exactSql(field: SearchField, value: string): Sql {
  const lower = value.toLowerCase();
  const parts: Sql[] = [];
  if (field === 'all' || field === 'title') parts.push({ sql: 'lower(d.title) = ?', params: [lower] });
  if (field === 'all' || field === 'filename') parts.push({ sql: 'lower(d.filename) = ?', params: [lower] });
  if (field === 'all' || field === 'labels') parts.push({ sql: 'EXISTS (SELECT 1 FROM json_each(d.label_names) WHERE value = ?)', params: [lower] });
  if (field === 'all' || field === 'metadata') parts.push({ sql: 'EXISTS (SELECT 1 FROM json_each(d.metadata_values) WHERE value = ?)', params: [lower] });
  if (!parts.length) return { sql: '0', params: [] };
  return { sql: `(${parts.map((part) => part.sql).join(' OR ')})`, params: parts.flatMap((part) => part.params) };
}

function facetEntry(row: { mime_type: string; status: string; ocr_confidence: number | null; created_at: string; label_ids: string }): FacetEntry {
  return {
    mimeType: row.mime_type,
    status: row.status,
    ocrConfidence: row.ocr_confidence,
    createdAt: row.created_at,
    labelIds: JSON.parse(row.label_ids) as string[],
  };
}

/** The rowids of `group_concat(rowid)`: parsed by hand, since a match set can hold every document. */
function parseRowids(list: string | null): Uint32Array {
  if (!list) return new Uint32Array(0);
  let count = 1;
  for (let i = 0; i < list.length; i++) if (list.charCodeAt(i) === 44) count++;
  const rids = new Uint32Array(count);
  let n = 0;
  let value = 0;
  for (let i = 0; i < list.length; i++) {
    const code = list.charCodeAt(i);
    if (code === 44) {
      rids[n++] = value;
      value = 0;
    } else value = value * 10 + code - 48;
  }
  rids[n] = value;
  return rids;
}

/** The SQL twin of FacetColumns.accepts: the page query filters with it, the counts in memory with the other. */
function filterSql(filters: SearchFilters): Sql {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  const list = (values: string[]) => values.map(() => '?').join(', ');
  if (filters.mimeTypes?.length) {
    parts.push(`d.mime_type IN (${list(filters.mimeTypes)})`);
    params.push(...filters.mimeTypes);
  }
  if (filters.status?.length) {
    parts.push(`d.status IN (${list(filters.status)})`);
    params.push(...filters.status);
  }
  if (filters.labels?.length) {
    parts.push(`EXISTS (SELECT 1 FROM json_each(d.label_ids) WHERE value IN (${list(filters.labels)}))`);
    params.push(...filters.labels);
  }
  if (filters.dateFrom) {
    parts.push('d.created_at >= ?');
    params.push(filters.dateFrom);
  }
  if (filters.dateTo) {
    parts.push('d.created_at <= ?');
    params.push(filters.dateTo);
  }
  if (filters.minConfidence !== undefined) {
    parts.push('d.ocr_confidence >= ?');
    params.push(filters.minConfidence);
  }
  return { sql: parts.map((part) => ` AND ${part}`).join(''), params };
}
