/** Highlights of a page of hits: FTS5 snippets for words and phrases, marked substrings for `contains`. */
import type Database from 'better-sqlite3';
import type { SearchHit } from '../../domain/search/ports';
import { escapeHtml, MARK_CLOSE, MARK_OPEN, markedToHtml } from '../../domain/search/text';
import { COLUMNS, type Column } from './sqlite-search-schema';
import type { QueryPlan, SqlValue } from './sqlite-search-query';

/** Tokens of a content snippet around the matches (FTS5 allows at most 64). */
const SNIPPET_TOKENS = 24;
/** Characters of content shown around a `contains` match, on each side. */
const CONTAINS_CONTEXT = 80;

/** Snippets of the page's documents: FTS5 marks words and phrases; `contains` values are marked here. */
export function highlightsOf(db: Database.Database, fts: string, plan: QueryPlan, rids: number[]): Map<number, SearchHit['highlights']> {
  const result = new Map<number, SearchHit['highlights']>();
  if (!rids.length) return result;
  const placeholders = rids.map(() => '?').join(', ');
  const marked = new Map<number, Record<Column, string>>();
  const wordExpression = plan.highlightExpression();
  if (wordExpression) {
    const rows = db
      .prepare<SqlValue[], Record<Column, string> & { rid: number }>(
        `SELECT rowid AS rid,
           highlight(${fts}, 0, ?, ?) AS title, highlight(${fts}, 1, ?, ?) AS filename,
           snippet(${fts}, 2, ?, ?, '…', ${SNIPPET_TOKENS}) AS content,
           highlight(${fts}, 3, ?, ?) AS labels, highlight(${fts}, 4, ?, ?) AS metadata
         FROM ${fts} WHERE ${fts} MATCH ? AND rowid IN (${placeholders})`,
      )
      .all(...Array.from({ length: 5 }, () => [MARK_OPEN, MARK_CLOSE]).flat(), wordExpression, ...rids);
    for (const row of rows) marked.set(row.rid, row);
  }
  const substrings = plan.containsValues();
  const texts = substrings.length
    ? new Map(
        db
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
