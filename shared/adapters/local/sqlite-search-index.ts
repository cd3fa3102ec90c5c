import { availableParallelism } from 'node:os';
import { deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type {
  IndexedDocument,
  SearchHit,
  SearchIndex,
  SearchIndexListing,
  SearchIndexStore,
  SearchRequest,
  SearchResults,
} from '../../domain/search/ports';
import type { DocumentListingIndex, DocumentQuery } from '../../domain/documents/ports';
import { fuzzyDistance, maxEdits, withinEdits } from '../../domain/search/text';
import { FacetColumns } from './search-facet-columns';
import { SqliteReadPool } from './sqlite-read-pool';
import { highlightsOf } from './sqlite-search-highlights';
import { sqliteIndexListing } from './sqlite-search-listing';
import { LISTING_ORDER, orderBy, parseRowids, QueryPlan, type SqlValue, type WorkspaceRange } from './sqlite-search-query';
import {
  adoptUnrangedFile,
  COLUMNS,
  columnsOf,
  facetEntry,
  INDEXES,
  inflateText,
  metadataValues,
  PAGE_SIZE,
  rowidRange,
  SCHEMA,
  vocabulary,
  WEIGHTS,
  type Column,
  type FacetChange,
} from './sqlite-search-schema';

/** Fuzzy alternatives of one word, at most: the closest are kept, so a query's work stays bounded. */
const MAX_FUZZY_ALTERNATIVES = 20;
/** Rows read past a relevance page, so that a run of equal scores at its end can still be ordered by id. */
const TIE_MARGIN = 50;
/** Reader threads that rank shards of a query in parallel: one per core, up to this many. */
const MAX_READERS = 4;
/**
 * Reader threads rank a workspace holding at least this share of the index's live documents; a smaller one is
 * ranked by this thread. FTS5's bm25() counts each query word's documents over the whole table on every
 * connection that ranks (`xQueryPhrase`: 40 ms for a word in 92% of 100,000 documents on a loaded machine), so
 * each thread repeats that count, and splitting a small workspace's scoring does not pay for it.
 */
const READERS_FROM_SHARE = 0.5;
/** Rows the BM25 ranking keeps at most for one page (a deep page); past this, the general query ranks instead. */
const MAX_RANKED_ROWS = 20_000;

interface PageRow {
  rid: number;
  id: string;
  title: string;
  score: number;
}

interface DocRow {
  rid: number;
  slot: number;
  version: number;
  deleted: number;
}

const NO_RESULTS: SearchResults = { results: [], total: 0, facets: { mime_types: {}, labels: {} } };

/** One workspace's view of the SQLite index: its search, its listing, its writes. */
export interface SqliteWorkspaceSearchIndex extends SearchIndex, DocumentListingIndex {
  readonly workspaceId: string;
  /** Upserts many documents in one transaction: what a rebuild or a benchmark wants. */
  upsertMany(documents: IndexedDocument[]): void;
}

export interface SqliteSearchIndexOptions {
  /**
   * Reader threads for ranking (a file only; none in memory). Default: one per core up to 4, none on one core.
   * A broad word ranks most of the index; split by row id over the cores it takes a fraction of the time.
   */
  readers?: number;
}

/**
 * The local SearchIndexStore: SQLite FTS5 in one file (under DATA_DIR) or in memory, holding every workspace.
 * - `fts`: porter + unicode61 over title, filename, content, label names and metadata values; BM25 with column
 *   weights; phrases, prefixes and highlights come from FTS5 itself.
 * - `tri`: a contentless trigram table over the same columns, for `contains` (substrings of words and numbers).
 * - `words`: each workspace's vocabulary, for fuzzy queries (a word becomes itself OR its close spellings, by
 *   edit distance), so that no workspace's words are tried in another's queries.
 * - `docs`: the filterable and sortable fields, the version of each document and the tombstones of removed
 *   ones. A row belongs to one workspace for good: a view never writes or removes another's row.
 * - Row ids are ranged by workspace (`rowidRange` of its slot in `workspaces`), in all three tables: a search
 *   reads, ranks and counts only its workspace's part of each doclist.
 * Writes are synchronous transactions, so an upsert is atomic and versions are compared and written as one.
 * BM25's statistics (how rare a word is) are the whole index's, so one workspace's documents shift the scores,
 * never the hits, of another's.
 */
export class SqliteSearchIndex implements SearchIndexStore {
  private readonly db: Database.Database;
  private readerCount: number;
  /** Started on the first ranked search, so that an index that is only written never starts threads. */
  private pool: SqliteReadPool | null = null;
  /** Words already in each workspace's vocabulary (by slot): written once per process. */
  private readonly knownWords = new Map<number, Set<string>>();
  /** The facet columns of each workspace, by slot. */
  private readonly columns = new Map<number, FacetColumns>();
  /** Committed slots by workspace id (a slot never changes once committed). */
  private readonly slots = new Map<string, number>();
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
    adoptUnrangedFile(this.db);
    this.db.exec(INDEXES);
    this.statements = {
      current: this.db.prepare<[string], DocRow>('SELECT rid, slot, version, deleted FROM docs WHERE id = ?'),
      slotOf: this.db.prepare<[string], number>('SELECT slot FROM workspaces WHERE workspace_id = ?').pluck(),
      addWorkspace: this.db.prepare<[string]>('INSERT INTO workspaces (workspace_id) VALUES (?)'),
      maxRid: this.db.prepare<[number, number], number | null>('SELECT max(rid) FROM docs WHERE rid BETWEEN ? AND ?').pluck(),
      insertDoc: this.db.prepare(
        `INSERT INTO docs (rid, id, slot, version, deleted, title, filename, content_z, labels_text, metadata_text, mime_type, status, ocr_confidence, size,
           created_at, updated_at, label_ids, label_names, metadata_values)
         VALUES (@rid, @id, @slot, @version, 0, @title, @filename, @content_z, @labels_text, @metadata_text, @mime_type, @status, @ocr_confidence, @size,
           @created_at, @updated_at, @label_ids, @label_names, @metadata_values)`,
      ),
      updateDoc: this.db.prepare(
        `UPDATE docs SET version = @version, deleted = 0, title = @title, filename = @filename, content_z = @content_z, labels_text = @labels_text,
           metadata_text = @metadata_text, mime_type = @mime_type, status = @status, ocr_confidence = @ocr_confidence, size = @size,
           created_at = @created_at, updated_at = @updated_at, label_ids = @label_ids, label_names = @label_names, metadata_values = @metadata_values
         WHERE rid = @rid`,
      ),
      insertTombstone: this.db.prepare<[number, string, number, number]>('INSERT INTO docs (rid, id, slot, version, deleted) VALUES (?, ?, ?, ?, 1)'),
      tombstone: this.db.prepare<[number, number]>(
        `UPDATE docs SET version = ?, deleted = 1, title = '', filename = '', content_z = NULL, labels_text = '', metadata_text = '', label_ids = '[]',
           label_names = '[]', metadata_values = '[]' WHERE rid = ?`,
      ),
      indexed: this.db.prepare<[number], Record<Column, string>>('SELECT title, filename, content, labels, metadata FROM fts_source WHERE rid = ?'),
      insertFts: this.db.prepare('INSERT INTO fts (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteFts: this.db.prepare(`INSERT INTO fts (fts, rowid, title, filename, content, labels, metadata) VALUES ('delete', ?, ?, ?, ?, ?, ?)`),
      insertTri: this.db.prepare('INSERT INTO tri (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteTri: this.db.prepare('DELETE FROM tri WHERE rowid = ?'),
      insertWord: this.db.prepare('INSERT OR IGNORE INTO words (slot, len, word) VALUES (?, ?, ?)'),
      wordsOfLength: this.db.prepare<[number, number, number], string>('SELECT word FROM words WHERE slot = ? AND len BETWEEN ? AND ?').pluck(),
    };
    const live = this.db.prepare<
      [],
      { rid: number; slot: number; mime_type: string; status: string; ocr_confidence: number | null; created_at: string; label_ids: string }
    >('SELECT rid, slot, mime_type, status, ocr_confidence, created_at, label_ids FROM docs WHERE deleted = 0');
    for (const row of live.iterate()) this.facetsOf(row.slot).set(row.rid - rowidRange(row.slot).base, facetEntry(row));
  }

  /**
   * The workspace's view: every read sees only its entries, every write stamps or checks its id. No I/O, so a
   * view may be taken per request.
   */
  forWorkspace(workspaceId: string): SqliteWorkspaceSearchIndex {
    if (!workspaceId) throw new Error('a search index view needs a workspace id');
    return {
      workspaceId,
      upsertMany: (documents) => this.upsertMany(workspaceId, documents),
      upsert: async (document) => this.apply(this.db.transaction(() => this.write(workspaceId, document))()),
      remove: async (documentId, version) => this.remove(workspaceId, documentId, version),
      search: (request) => this.search(workspaceId, request),
      list: async (query) => this.list(workspaceId, query),
    };
  }

  /** What the workspace's part of the index holds (see sqliteIndexListing). */
  listingOf(workspaceId: string): SearchIndexListing {
    return sqliteIndexListing(this.db, this.slotOf(workspaceId));
  }

  async clear(): Promise<void> {
    // The workspaces keep their slots: a slot is never given to another workspace.
    this.db.exec(`INSERT INTO fts (fts) VALUES ('delete-all'); DELETE FROM tri; DELETE FROM docs; DELETE FROM words;`);
    this.knownWords.clear();
    this.columns.clear();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  private upsertMany(workspaceId: string, documents: IndexedDocument[]): void {
    const changes = this.db.transaction(() => documents.map((document) => this.write(workspaceId, document)))();
    for (const change of changes) this.apply(change);
  }

  private remove(workspaceId: string, documentId: string, version: number): void {
    const change = this.db.transaction((): FacetChange | null => {
      const current = this.statements.current.get(documentId);
      // Another workspace's entry is not this view's to remove (nor to tombstone: the id is taken).
      if (current && current.slot !== this.slotOf(workspaceId)) return null;
      // The tombstone holds the version after the removal: upserts up to `version` stay out, a newer one wins.
      if (current && current.version > version + 1) return null;
      if (!current) {
        const slot = this.slotFor(workspaceId);
        this.statements.insertTombstone.run(this.nextRid(slot), documentId, slot, version + 1);
        return null;
      }
      if (!current.deleted) this.unindex(current.rid);
      this.statements.tombstone.run(version + 1, current.rid);
      return { slot: current.slot, sequence: current.rid - rowidRange(current.slot).base, entry: null };
    })();
    this.apply(change);
  }

  /** The workspace's committed slot, if it has one (read in a write, it also sees that write's own). */
  private slotOf(workspaceId: string): number | undefined {
    const cached = this.slots.get(workspaceId);
    if (cached !== undefined) return cached;
    const slot = this.statements.slotOf.get(workspaceId);
    // Cached only once committed: a transaction that gave the slot may still roll back.
    if (slot !== undefined && !this.db.inTransaction) this.slots.set(workspaceId, slot);
    return slot;
  }

  /** The workspace's slot, given in this write transaction when it has none yet. */
  private slotFor(workspaceId: string): number {
    const slot = this.slotOf(workspaceId);
    if (slot !== undefined) return slot;
    const added = Number(this.statements.addWorkspace.run(workspaceId).lastInsertRowid);
    rowidRange(added);
    return added;
  }

  /** The next row id of the slot's range (rows are never deleted, so a sequence is never reused). */
  private nextRid(slot: number): number {
    const { first, last } = rowidRange(slot);
    const max = this.statements.maxRid.get(first, last);
    const next = max === null || max === undefined ? first : max + 1;
    if (next > last) throw new Error('the search index holds as many rows as a workspace can have');
    return next;
  }

  /** Live documents of every workspace. */
  private liveDocuments(): number {
    let total = 0;
    for (const columns of this.columns.values()) total += columns.size;
    return total;
  }

  private facetsOf(slot: number): FacetColumns {
    let columns = this.columns.get(slot);
    if (!columns) this.columns.set(slot, (columns = new FacetColumns()));
    return columns;
  }

  /**
   * A filtered or sorted listing of the workspace's documents from the documents table of the index (no
   * full-text work): the page's ids and the total. Null for a source filter, which the index does not hold.
   */
  private list(workspaceId: string, query: DocumentQuery): { ids: string[]; total: number } | null {
    if (query.sourceId) return null;
    const slot = this.slotOf(workspaceId);
    if (slot === undefined) return { ids: [], total: 0 };
    const parts: string[] = ['d.slot = ?', 'd.deleted = 0'];
    const params: SqlValue[] = [slot];
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
    if (change.entry) this.facetsOf(change.slot).set(change.sequence, change.entry);
    else this.facetsOf(change.slot).delete(change.sequence);
  }

  private write(workspaceId: string, document: IndexedDocument): FacetChange | null {
    const current = this.statements.current.get(document.id);
    // Ids are unique across workspaces: one held by another workspace is refused, its entry left as it is.
    if (current && current.slot !== this.slotOf(workspaceId)) return null;
    if (current && current.version > document.version) return null;
    const slot = current ? current.slot : this.slotFor(workspaceId);
    const text = columnsOf(document);
    const row = {
      id: document.id,
      slot,
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
      rid = this.nextRid(slot);
      this.statements.insertDoc.run({ ...row, rid });
    }
    const values = COLUMNS.map((column) => text[column]);
    this.statements.insertFts.run(rid, ...values);
    this.statements.insertTri.run(rid, ...values);
    let known = this.knownWords.get(slot);
    if (!known) this.knownWords.set(slot, (known = new Set()));
    for (const word of vocabulary(values.join(' '))) {
      if (known.has(word)) continue;
      known.add(word);
      this.statements.insertWord.run(slot, word.length, word);
    }
    return { slot, sequence: rid - rowidRange(slot).base, entry: facetEntry(row) };
  }

  /**
   * Three steps, each on the cheapest store: the match set's rowids from one SQLite pass (`group_concat`, no
   * row goes to JS one by one), the total and facets counted over them in memory, and the page ranked by
   * SQLite (FTS5's own BM25 sort when nothing else constrains the order, so only the page leaves SQLite). Each
   * step reads only the workspace's row id range.
   */
  private async search(workspaceId: string, request: SearchRequest): Promise<SearchResults> {
    const slot = this.slotOf(workspaceId);
    if (slot === undefined) return NO_RESULTS;
    const { base, first } = rowidRange(slot);
    // The range ends at the workspace's last row: the reader threads split what is there, not 2^32 ids.
    const range: WorkspaceRange = { base, first, last: this.statements.maxRid.get(first, rowidRange(slot).last) ?? first };
    const plan = new QueryPlan(request, range, (word) => this.fuzzyAlternatives(slot, word));
    const offset = (request.page - 1) * request.perPage;
    // Started first: the reader threads rank while this thread counts.
    const parallel = this.facetsOf(slot).size >= READERS_FROM_SHARE * this.liveDocuments();
    const ranked = plan.rankedByFts() ? this.pageByFtsRank(plan, range, offset, request.perPage, parallel) : Promise.resolve(null);
    // Should the count below throw first, the ranking's own failure must not go unhandled.
    ranked.catch(() => undefined);
    const matchSet = plan.matchSet();
    const sequences = parseRowids(this.db.prepare<SqlValue[], string | null>(matchSet.sql).pluck().get(...matchSet.params) ?? null);
    const { total, facets } = this.facetsOf(slot).count(sequences, request.filters);
    const hits = (await ranked) ?? (total ? this.page(plan, request, offset) : []);
    const highlights = request.highlight ? highlightsOf(this.db, plan, hits.map((hit) => hit.rid)) : new Map<number, SearchHit['highlights']>();
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
   * A relevance page straight from FTS5's BM25 sort over the workspace's range, which keeps only the best rows
   * instead of sorting every match. Rows past the page are read too, so that equal scores can be ordered by id
   * as the general query orders them. Null (the caller then takes the general query) when a run of equal
   * scores reaches past what was read, or for a page too deep.
   */
  private async pageByFtsRank(plan: QueryPlan, range: WorkspaceRange, offset: number, perPage: number, parallel: boolean): Promise<PageRow[] | null> {
    const end = offset + perPage;
    const limit = end + TIE_MARGIN;
    if (limit > MAX_RANKED_ROWS) return null;
    const ranked = await this.bestByBm25(plan.wordsExpression(), range, limit, parallel);
    if (ranked.length === limit && ranked[end - 1]!.score === ranked[limit - 1]!.score) return null;
    const names = this.namesOf(range, ranked.map((row) => row.rid));
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
   * The `limit` best matches of the range by BM25, best first. With reader threads (`parallel`), each ranks
   * one part of the range and the best of their bests are the best overall (BM25's statistics are the whole
   * table's in every part).
   */
  private async bestByBm25(expression: string, range: WorkspaceRange, limit: number, parallel: boolean): Promise<{ rid: number; score: number }[]> {
    const select = `SELECT rowid AS rid, -bm25(fts, ${WEIGHTS}) AS score FROM fts WHERE fts MATCH ? AND rowid BETWEEN ? AND ?`;
    const order = `ORDER BY bm25(fts, ${WEIGHTS}) LIMIT ?`;
    const pool = parallel ? this.readers() : null;
    if (pool) {
      const span = Math.ceil((range.last - range.first + 1) / pool.size);
      try {
        const shards = await pool.allOnEach<{ rid: number; score: number }>(
          Array.from({ length: pool.size }, (_, i) => ({
            sql: `${select} ${order}`,
            params: [expression, range.first + i * span, Math.min(range.last, range.first + (i + 1) * span - 1), limit],
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
    return this.db
      .prepare<[string, number, number, number], { rid: number; score: number }>(`${select} ${order}`)
      .all(expression, range.first, range.last, limit);
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

  private namesOf(range: WorkspaceRange, rids: number[]): Map<number, { id: string; title: string }> {
    if (!rids.length) return new Map();
    const rows = this.db
      .prepare<SqlValue[], { rid: number; id: string; title: string }>(
        `SELECT rid, id, title FROM docs WHERE rid BETWEEN ? AND ? AND deleted = 0 AND rid IN (${rids.map(() => '?').join(', ')})`,
      )
      .all(range.first, range.last, ...rids);
    return new Map(rows.map((row) => [row.rid, row]));
  }

  private fuzzyAlternatives(slot: number, word: string): string[] {
    const normalized = word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    const edits = maxEdits(normalized.length);
    if (!edits || !/^[\p{L}\p{N}]+$/u.test(normalized)) return [];
    const candidates = this.statements.wordsOfLength.all(slot, normalized.length - edits, normalized.length + edits);
    return candidates
      .filter((candidate) => candidate !== normalized && withinEdits(normalized, candidate, edits))
      .map((candidate) => ({ candidate, distance: fuzzyDistance(normalized, candidate) }))
      .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
      .slice(0, MAX_FUZZY_ALTERNATIVES)
      .map(({ candidate }) => candidate);
  }
}
