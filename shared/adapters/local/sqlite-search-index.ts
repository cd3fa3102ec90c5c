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
import type { DocumentListingIndex } from '../../domain/documents/ports';
import { FacetColumns } from './search-facet-columns';
import { listIndexedDocuments } from './sqlite-document-listing';
import { highlightsOf } from './sqlite-search-highlights';
import { sqliteIndexListing } from './sqlite-search-listing';
import { parseRowids, QueryPlan, type SqlValue, type WorkspaceRange } from './sqlite-search-query';
import { adoptPairTables, PairText } from './sqlite-search-pairs';
import { SqliteRanking, type PageRow } from './sqlite-search-ranking';
import {
  adoptSharedTables,
  adoptUnrangedFile,
  CACHE_KIB,
  COLUMNS,
  dropWorkspaceTablesSql,
  columnsOf,
  facetEntry,
  INDEXES,
  inflateText,
  metadataValues,
  PAGE_SIZE,
  ROWS_PER_WORKSPACE,
  rowidRange,
  SCHEMA,
  type FacetChange,
  workspaceTables,
  workspaceTablesSql,
  workspaceWriteStatements,
  writeStatements,
} from './sqlite-search-schema';
import { SqliteSubstrings } from './sqlite-search-substrings';
import { SqliteVocabulary } from './sqlite-search-vocabulary';

/**
 * Reader threads rank a workspace of at least this many live documents; a smaller one is ranked by this thread.
 * FTS5's bm25() counts each query word's documents over the workspace's table on every connection that ranks
 * (`xQueryPhrase`), so each thread repeats that count, and splitting a small workspace's scoring does not pay.
 */
const READERS_FROM_DOCUMENTS = 20_000;

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
  /** The live documents from which a workspace is ranked by the reader threads. Default: {@link READERS_FROM_DOCUMENTS}. */
  readersFromDocuments?: number;
}

/**
 * The local SearchIndexStore: SQLite FTS5 in one file (under DATA_DIR) or in memory, holding every workspace.
 * Each workspace has its own full-text tables (created with its first document, see `workspaceTables`):
 * - `fts_N`: porter + unicode61 over title, filename, content, label names and metadata values; BM25 with
 *   column weights; phrases, prefixes and highlights come from FTS5 itself.
 * - `raw_N`: the same text unstemmed, without positions, and `tok_N`: the trigrams of the workspace's distinct
 *   tokens, for `contains` (substrings of words and numbers, see SqliteSubstrings).
 * - `pairs_N`: adjacent common words as one token each, for phrases of common words (see PairText).
 * - `words`: each workspace's vocabulary, for fuzzy queries (a word becomes itself OR its close spellings, by
 *   edit distance) and prefixes, so that no workspace's words are tried in another's queries.
 * - `docs`: the text (once, the content compressed), the filterable and sortable fields, the version of each
 *   document and the tombstones of removed ones. A row belongs to one workspace for good: a view never writes or
 *   removes another's row. Row ids are ranged by workspace (`rowidRange` of its slot in `workspaces`).
 * Writes are synchronous transactions, so an upsert is atomic and versions are compared and written as one.
 * A search reads, ranks (BM25's statistics are its workspace's) and counts only its workspace's tables, so its
 * cost does not depend on the other workspaces' sizes.
 */
export class SqliteSearchIndex implements SearchIndexStore {
  private readonly db: Database.Database;
  private readonly ranking: SqliteRanking;
  private readonly vocabulary: SqliteVocabulary;
  /** The facet columns of each workspace, by slot. */
  private readonly columns = new Map<number, FacetColumns>();
  /** Committed slots by workspace id (a slot never changes once committed). */
  private readonly slots = new Map<string, number>();
  private readonly statements;
  /** Each workspace's write statements, by slot (its tables exist once these are prepared). */
  private readonly workspaceStatements = new Map<number, ReturnType<typeof workspaceWriteStatements>>();
  private readonly substrings: SqliteSubstrings;
  private readonly pairText: PairText;
  private readonly readersFromDocuments: number;
  /** Writes waiting for the next commit (see enqueue). */
  private readonly queued: { workspaceId: string; run: () => FacetChange | null; resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(path: string, options: SqliteSearchIndexOptions = {}) {
    this.db = new Database(path);
    this.db.function('inflate_text', { deterministic: true }, (blob: unknown) => inflateText(blob as Buffer | null));
    this.db.pragma(`page_size = ${PAGE_SIZE}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`cache_size = -${CACHE_KIB}`);
    this.db.exec(SCHEMA);
    adoptUnrangedFile(this.db);
    adoptSharedTables(this.db);
    this.pairText = new PairText(this.db);
    adoptPairTables(this.db, this.pairText);
    this.db.exec(INDEXES);
    this.statements = writeStatements(this.db);
    const live = this.db.prepare<
      [],
      { rid: number; slot: number; mime_type: string; status: string; ocr_confidence: number | null; created_at: string; label_ids: string }
    >('SELECT rid, slot, mime_type, status, ocr_confidence, created_at, label_ids FROM docs WHERE deleted = 0');
    for (const row of live.iterate()) this.facetsOf(row.slot).set(row.rid - rowidRange(row.slot).base, facetEntry(row));
    this.ranking = new SqliteRanking(this.db, path, options.readers);
    this.vocabulary = new SqliteVocabulary(this.db);
    this.substrings = new SqliteSubstrings(this.db);
    this.readersFromDocuments = options.readersFromDocuments ?? READERS_FROM_DOCUMENTS;
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
      upsert: (document) => this.enqueue(workspaceId, () => this.write(workspaceId, document)),
      remove: (documentId, version) => this.enqueue(workspaceId, () => this.removeWithin(workspaceId, documentId, version)),
      search: (request) => this.search(workspaceId, request),
      list: async (query) => listIndexedDocuments(this.db, this.slotOf(workspaceId), query),
    };
  }

  /** What the workspace's part of the index holds (see sqliteIndexListing). */
  listingOf(workspaceId: string): SearchIndexListing {
    return sqliteIndexListing(this.db, this.slotOf(workspaceId));
  }

  async clear(): Promise<void> {
    // The workspaces keep their slots: a slot is never given to another workspace. Their tables go and come back
    // with their next document.
    const slots = this.db.prepare<[], number>('SELECT slot FROM workspaces').pluck().all();
    this.db.transaction(() => {
      for (const slot of slots) this.db.exec(dropWorkspaceTablesSql(slot));
      this.db.exec('DELETE FROM docs; DELETE FROM words;');
    })();
    this.workspaceStatements.clear();
    this.vocabulary.clear();
    this.columns.clear();
  }

  /**
   * Erases a workspace's part of the index (a workspace's erasure): its rows and tombstones, their full-text
   * entries, its vocabulary, and its id in `workspaces` (the slot stays taken, under no id, so no row id of it is
   * ever given again). Freed pages are overwritten and the full-text segments merged, so no deleted word stays
   * readable in the file. Idempotent; returns how many rows it removed.
   */
  eraseWorkspace(workspaceId: string): number {
    const slot = this.slotOf(workspaceId);
    if (slot === undefined) return 0;
    const { first, last } = rowidRange(slot);
    this.db.pragma('secure_delete = ON');
    try {
      const removed = this.db.transaction(() => {
        const rows = this.db.prepare<[number, number], { rid: number; deleted: number }>('SELECT rid, deleted FROM docs WHERE rid BETWEEN ? AND ?').all(first, last);
        for (const row of rows) if (!row.deleted) this.unindex(row.rid);
        this.db.prepare('DELETE FROM docs WHERE rid BETWEEN ? AND ?').run(first, last);
        this.db.prepare('DELETE FROM words WHERE slot = ?').run(slot);
        this.db.prepare("UPDATE workspaces SET workspace_id = 'erased#' || slot WHERE slot = ?").run(slot);
        return rows.length;
      })();
      this.dropTablesOf(slot);
      this.checkpoint();
      return removed;
    } finally {
      this.db.pragma('secure_delete = OFF');
      this.slots.delete(workspaceId);
      this.columns.delete(slot);
      this.vocabulary.forget(slot);
    }
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  private upsertMany(workspaceId: string, documents: IndexedDocument[]): void {
    this.tablesOf(workspaceId);
    const changes = this.db.transaction(() => documents.map((document) => this.write(workspaceId, document)))();
    for (const change of changes) this.apply(change);
  }

  /**
   * Queues one document's write: the writes that arrive in the same turn of the event loop (the indexer runs
   * several documents at once, a burst of uploads brings many) commit in one transaction, which costs about what
   * one write's own transaction costs (FTS5 flushes its pending segment and the WAL syncs once per commit). Each
   * write keeps its own checks (versions, workspace) and they run in arrival order.
   */
  private enqueue(workspaceId: string, run: () => FacetChange | null): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queued.push({ workspaceId, run, resolve, reject });
      if (this.queued.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const writes = this.queued.splice(0);
    try {
      for (const write of writes) this.tablesOf(write.workspaceId);
      const changes = this.db.transaction(() => writes.map((write) => write.run()))();
      for (const change of changes) this.apply(change);
      for (const write of writes) write.resolve();
    } catch {
      // One failing write must not fail the others: each is tried again alone, in its own transaction.
      for (const write of writes) {
        try {
          this.tablesOf(write.workspaceId);
          this.apply(this.db.transaction(write.run)());
          write.resolve();
        } catch (error) {
          write.reject(error);
        }
      }
    }
  }

  private removeWithin(workspaceId: string, documentId: string, version: number): FacetChange | null {
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

  /**
   * The workspace's slot with its tables, both committed first in a transaction of their own (an empty workspace
   * costs four empty tables), so that a write's rollback never leaves prepared statements on missing tables.
   */
  private tablesOf(workspaceId: string): ReturnType<typeof workspaceWriteStatements> {
    const slot = this.slotOf(workspaceId) ?? this.db.transaction(() => this.slotFor(workspaceId))();
    return this.statementsOf(slot);
  }

  /** Drops a workspace's full-text tables (they come back with its next document). */
  private dropTablesOf(slot: number): void {
    this.workspaceStatements.delete(slot);
    this.db.exec(dropWorkspaceTablesSql(slot));
  }

  private statementsOf(slot: number): ReturnType<typeof workspaceWriteStatements> {
    let statements = this.workspaceStatements.get(slot);
    if (!statements) {
      this.db.exec(workspaceTablesSql(slot));
      this.workspaceStatements.set(slot, (statements = workspaceWriteStatements(this.db, slot)));
    }
    return statements;
  }

  /** The next row id of the slot's range (rows are never deleted, so a sequence is never reused). */
  private nextRid(slot: number): number {
    const { first, last } = rowidRange(slot);
    const max = this.statements.maxRid.get(first, last);
    const next = max === null || max === undefined ? first : max + 1;
    if (next > last) throw new Error('the search index holds as many rows as a workspace can have');
    return next;
  }

  private facetsOf(slot: number): FacetColumns {
    let columns = this.columns.get(slot);
    if (!columns) this.columns.set(slot, (columns = new FacetColumns()));
    return columns;
  }

  close(): void {
    this.ranking.close();
    this.db.close();
  }

  /**
   * Merges the full-text indexes into one segment each and compacts the file: after a rebuild, or any bulk load.
   * Incremental writes are merged by FTS5 itself as they go.
   */
  optimize(): void {
    const tables = this.db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'")
      .pluck()
      .all();
    for (const table of tables) this.db.exec(`INSERT INTO ${table} (${table}) VALUES ('optimize')`);
    this.db.exec('VACUUM');
  }

  /** Moves the WAL into the main file, so that the file's size is the index's size. */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** Bytes in the file, with the text, each kind of full-text table and the vocabulary counted apart (bench/search.ts). */
  sizeOnDisk(): { total: number; docs: number; fts: number; raw: number; trigram: number; pairs: number; words: number } {
    const rows = this.db.prepare<[], { name: string; bytes: number }>('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all();
    const sum = (match: (name: string) => boolean) => rows.filter((row) => match(row.name)).reduce((total, row) => total + row.bytes, 0);
    return {
      total: sum(() => true),
      docs: sum((name) => name === 'docs' || name.startsWith('sqlite_autoindex_docs') || name === 'docs_slot'),
      fts: sum((name) => name.startsWith('fts_')),
      raw: sum((name) => name.startsWith('raw_')),
      trigram: sum((name) => name.startsWith('tok_')),
      pairs: sum((name) => name.startsWith('pairs_')),
      words: sum((name) => name === 'words'),
    };
  }

  /**
   * Takes a row out of both full-text tables. An external-content table forgets a row by being told the exact
   * text it indexed, read back here before the row changes.
   */
  private unindex(rid: number): void {
    const old = this.statements.indexed.get(rid);
    if (!old) return;
    const statements = this.statementsOf(Math.floor(rid / ROWS_PER_WORKSPACE));
    const values = COLUMNS.map((column) => old[column]);
    statements.deleteFts.run(rid, ...values);
    statements.deleteRaw.run(rid, ...values);
    statements.deletePairs.run(rid, ...this.pairText.columns(values));
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
    const statements = this.statementsOf(slot);
    statements.insertFts.run(rid, ...values);
    statements.insertRaw.run(rid, ...values);
    statements.insertPairs.run(rid, ...this.pairText.columns(values));
    for (const token of this.vocabulary.add(slot, values.join(' '))) statements.insertToken.run(token);
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
    if (!this.facetsOf(slot).size) return NO_RESULTS;
    const { base, first } = rowidRange(slot);
    const tables = workspaceTables(slot);
    // The range ends at the workspace's last row: the reader threads split what is there, not 2^32 ids.
    const range: WorkspaceRange = { base, first, last: this.statements.maxRid.get(first, rowidRange(slot).last) ?? first, tables };
    const plan = new QueryPlan(request, range, {
      alternatives: (word) => this.vocabulary.alternatives(slot, word),
      prefixTerms: (prefix) => this.vocabulary.prefixTerms(slot, prefix),
      contains: (field, value) => this.substrings.resolve({ tables, first: range.first, last: range.last }, field, value),
      pairTerms: (phrase) => this.pairText.phraseTerms(phrase),
    });
    const offset = (request.page - 1) * request.perPage;
    // A large workspace is ranked by the reader threads, one part of its range each.
    const parallel = this.facetsOf(slot).size >= this.readersFromDocuments;
    let ranked: PageRow[] | null = null;
    let sequences: Uint32Array;
    if (plan.rankedByFts()) {
      // One FTS5 pass gives both the match set and the scores to rank by (its matches come back to JavaScript
      // faster than FTS5 evaluates the query twice).
      const once =
        (parallel ? await this.ranking.pageAndMatchesInReaders(plan, range, offset, request.perPage) : null) ??
        this.ranking.pageAndMatches(plan, range, offset, request.perPage);
      ranked = once.page;
      sequences = once.sequences;
    } else {
      const matchSet = plan.matchSet();
      sequences = parseRowids(this.db.prepare<SqlValue[], string | null>(matchSet.sql).pluck().get(...matchSet.params) ?? null);
    }
    const { total, facets } = this.facetsOf(slot).count(sequences, request.filters);
    const hits = ranked ?? (total ? this.ranking.page(plan, request, offset) : []);
    const highlights = request.highlight ? highlightsOf(this.db, tables.fts, plan, hits.map((hit) => hit.rid)) : new Map<number, SearchHit['highlights']>();
    return {
      results: hits.map((hit) => ({ document_id: hit.id, title: hit.title, score: hit.score, highlights: highlights.get(hit.rid) ?? [] })),
      total,
      facets,
    };
  }
}
