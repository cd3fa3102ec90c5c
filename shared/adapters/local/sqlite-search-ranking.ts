import { availableParallelism } from 'node:os';
import type Database from 'better-sqlite3';
import type { SearchRequest } from '../../domain/search/ports';
import { SqliteReadPool } from './sqlite-read-pool';
import { orderBy, type QueryPlan, type SqlValue, type WorkspaceRange } from './sqlite-search-query';
import { WEIGHTS } from './sqlite-search-schema';

/** Rows read past a relevance page, so that a run of equal scores at its end can still be ordered by id. */
const TIE_MARGIN = 50;
/** Reader threads that rank shards of a query in parallel: one per core, up to this many. */
const MAX_READERS = 4;
/** Rows the BM25 ranking keeps at most for one page (a deep page); past this, the general query ranks instead. */
const MAX_RANKED_ROWS = 20_000;

/** One hit of a page: its row, its document and its score. */
export interface PageRow {
  rid: number;
  id: string;
  title: string;
  score: number;
}

/**
 * Puts a search's page in order: BM25 over the workspace's matches, from the same FTS5 pass that gives the
 * match set, when the page is by relevance (in reader threads, one part of the range each, for a large
 * workspace), else the general query's ORDER BY. Reader threads start on the first ranked search, so an index that is only written never
 * starts any.
 */
export class SqliteRanking {
  private pool: SqliteReadPool | null = null;
  private readerCount: number;

  /** `readers`: threads for ranking; default one per core up to 4, none on one core, none for an in-memory file. */
  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
    readers?: number,
  ) {
    const cores = availableParallelism();
    this.readerCount = path === ':memory:' ? 0 : (readers ?? (cores > 1 ? Math.min(cores, MAX_READERS) : 0));
  }

  /** The requested page of hits, in the requested order; ties are broken by id so that pages never overlap. */
  page(plan: QueryPlan, request: SearchRequest, offset: number): PageRow[] {
    const matches = plan.matches();
    const order = orderBy(request.sort);
    return this.db
      .prepare<SqlValue[], PageRow>(`SELECT rid, id, title, score FROM (${matches.sql}) ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...matches.params, request.perPage, offset);
  }

  /**
   * The match set (sequences in the workspace's range) and the relevance page from one FTS5 pass: every match
   * with its BM25 score comes back, the page is the best of them (ties by id: rows past the page
   * are ranked too, so that a run of equal scores at its end is ordered as the general query orders it). The page
   * is null (the caller then takes {@link page}) when such a run reaches past what is ranked, or for a page too deep.
   */
  pageAndMatches(plan: QueryPlan, range: WorkspaceRange, offset: number, perPage: number): { page: PageRow[] | null; sequences: Uint32Array } {
    const { table, expression } = plan.wordsSource();
    const rows = this.db
      .prepare<[string, number, number], [number, number]>(
        `SELECT rowid, -bm25(${table}, ${WEIGHTS}) FROM ${table} WHERE ${table} MATCH ? AND rowid BETWEEN ? AND ?`,
      )
      .raw()
      .all(expression, range.first, range.last);
    const sequences = new Uint32Array(rows.length);
    for (let i = 0; i < rows.length; i++) sequences[i] = rows[i]![0] - range.base;
    const end = offset + perPage;
    const limit = end + TIE_MARGIN;
    if (limit > MAX_RANKED_ROWS) return { page: null, sequences };
    const ranked = best(rows, limit).map(([rid, score]) => ({ rid, score }));
    if (ranked.length === limit && ranked[end - 1]!.score === ranked[limit - 1]!.score) return { page: null, sequences };
    return { page: this.named(range, ranked, offset, end), sequences };
  }

  /**
   * {@link pageAndMatches} split over the reader threads, one part of the range each; each answers its best
   * rows and its part of the match set from one pass. Null when there are no readers (or they failed): the
   * caller then takes pageAndMatches in its own thread.
   */
  async pageAndMatchesInReaders(
    plan: QueryPlan,
    range: WorkspaceRange,
    offset: number,
    perPage: number,
  ): Promise<{ page: PageRow[] | null; sequences: Uint32Array } | null> {
    const pool = this.readers();
    if (!pool) return null;
    const { table, expression } = plan.wordsSource();
    const end = offset + perPage;
    const limit = end + TIE_MARGIN;
    const span = Math.ceil((range.last - range.first + 1) / pool.size);
    const sql = `SELECT rowid, -bm25(${table}, ${WEIGHTS}) FROM ${table} WHERE ${table} MATCH ? AND rowid BETWEEN ? AND ?`;
    let parts;
    try {
      parts = await pool.rankOnEach(
        Array.from({ length: pool.size }, (_, i) => ({
          sql,
          params: [expression, range.first + i * span, Math.min(range.last, range.first + (i + 1) * span - 1)],
        })),
        { base: range.base, limit },
      );
    } catch {
      // A reader that failed (or a pool that died) is not worth failing the search: this thread ranks instead.
      return null;
    }
    const sequences = new Uint32Array(parts.reduce((sum, part) => sum + part.sequences.length, 0));
    let at = 0;
    for (const part of parts) {
      sequences.set(part.sequences, at);
      at += part.sequences.length;
    }
    if (limit > MAX_RANKED_ROWS) return { page: null, sequences };
    const ranked = parts
      .flatMap((part) => part.rows)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
    if (ranked.length === limit && ranked[end - 1]!.score === ranked[limit - 1]!.score) return { page: null, sequences };
    return { page: this.named(range, ranked, offset, end), sequences };
  }

  /** Ends the reader threads. */
  close(): void {
    void this.pool?.close();
    this.pool = null;
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

  /** The page of the ranked rows with their documents' ids and titles, ties ordered by id. */
  private named(range: WorkspaceRange, ranked: { rid: number; score: number }[], offset: number, end: number): PageRow[] {
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

  private namesOf(range: WorkspaceRange, rids: number[]): Map<number, { id: string; title: string }> {
    if (!rids.length) return new Map();
    const rows = this.db
      .prepare<SqlValue[], { rid: number; id: string; title: string }>(
        `SELECT rid, id, title FROM docs WHERE rid BETWEEN ? AND ? AND deleted = 0 AND rid IN (${rids.map(() => '?').join(', ')})`,
      )
      .all(range.first, range.last, ...rids);
    return new Map(rows.map((row) => [row.rid, row]));
  }
}

/**
 * The `limit` rows of highest score, best first, without sorting them all (a common word matches most of a
 * workspace): a heap of the best so far, the lowest on top. Which of several rows with the score at the cut are
 * kept does not change a page: the caller falls back to the general query when such a run reaches into it.
 * The twin of `best` in sqlite-read-worker.mjs (plain JavaScript, which imports nothing of this).
 */
export function best(rows: [number, number][], limit: number): [number, number][] {
  if (rows.length <= limit) return rows.sort((a, b) => b[1] - a[1]);
  const heap = rows.slice(0, limit);
  const down = (from: number) => {
    for (let at = from; ; ) {
      const left = 2 * at + 1;
      const right = left + 1;
      let low = at;
      if (left < limit && heap[left]![1] < heap[low]![1]) low = left;
      if (right < limit && heap[right]![1] < heap[low]![1]) low = right;
      if (low === at) return;
      [heap[at], heap[low]] = [heap[low]!, heap[at]!];
      at = low;
    }
  };
  for (let at = (limit >> 1) - 1; at >= 0; at--) down(at);
  for (let i = limit; i < rows.length; i++) {
    if (rows[i]![1] > heap[0]![1]) {
      heap[0] = rows[i]!;
      down(0);
    }
  }
  return heap.sort((a, b) => b[1] - a[1]);
}
