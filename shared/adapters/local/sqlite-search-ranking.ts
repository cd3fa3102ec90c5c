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
 * Puts a search's page in order: FTS5's BM25 sort over the workspace's row id range when the page is by
 * relevance (in reader threads, one part of the range each, when the caller says it pays), else the general
 * query's ORDER BY. Reader threads start on the first ranked search, so an index that is only written never
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
   * A relevance page straight from FTS5's BM25 sort over the workspace's range, which keeps only the best rows
   * instead of sorting every match. Rows past the page are read too, so that equal scores can be ordered by id
   * as the general query orders them. Null (the caller then takes {@link page}) when a run of equal scores
   * reaches past what was read, or for a page too deep.
   */
  async pageByFtsRank(plan: QueryPlan, range: WorkspaceRange, offset: number, perPage: number, parallel: boolean): Promise<PageRow[] | null> {
    const end = offset + perPage;
    const limit = end + TIE_MARGIN;
    if (limit > MAX_RANKED_ROWS) return null;
    const ranked = await this.bestByBm25(plan.wordsExpression(), range, limit, parallel);
    if (ranked.length === limit && ranked[end - 1]!.score === ranked[limit - 1]!.score) return null;
    return this.named(range, ranked, offset, end);
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

  /**
   * The match set (sequences in the workspace's range) and the relevance page from one FTS5 pass: every match
   * with its BM25 score comes back, the page is the best of them (ties by id, as {@link pageByFtsRank}). The
   * page is null where pageByFtsRank's would be (a run of equal scores past what is ranked, a page too deep).
   */
  pageAndMatches(plan: QueryPlan, range: WorkspaceRange, offset: number, perPage: number): { page: PageRow[] | null; sequences: Uint32Array } {
    const { fts } = range.tables;
    const rows = this.db
      .prepare<[string, number, number], [number, number]>(
        `SELECT rowid, -bm25(${fts}, ${WEIGHTS}) FROM ${fts} WHERE ${fts} MATCH ? AND rowid BETWEEN ? AND ?`,
      )
      .raw()
      .all(plan.wordsExpression(), range.first, range.last);
    const sequences = new Uint32Array(rows.length);
    for (let i = 0; i < rows.length; i++) sequences[i] = rows[i]![0] - range.base;
    const end = offset + perPage;
    const limit = end + TIE_MARGIN;
    if (limit > MAX_RANKED_ROWS) return { page: null, sequences };
    const ranked = rows
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([rid, score]) => ({ rid, score }));
    if (ranked.length === limit && ranked[end - 1]!.score === ranked[limit - 1]!.score) return { page: null, sequences };
    return { page: this.named(range, ranked, offset, end), sequences };
  }

  /** Ends the reader threads. */
  close(): void {
    void this.pool?.close();
    this.pool = null;
  }

  /**
   * The `limit` best matches of the range by BM25, best first. With reader threads (`parallel`), each ranks
   * one part of the range and the best of their bests are the best overall (BM25's statistics are the whole
   * table's in every part).
   */
  private async bestByBm25(expression: string, range: WorkspaceRange, limit: number, parallel: boolean): Promise<{ rid: number; score: number }[]> {
    const { fts } = range.tables;
    const select = `SELECT rowid AS rid, -bm25(${fts}, ${WEIGHTS}) AS score FROM ${fts} WHERE ${fts} MATCH ? AND rowid BETWEEN ? AND ?`;
    const order = `ORDER BY bm25(${fts}, ${WEIGHTS}) LIMIT ?`;
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
}
