/**
 * `contains` (a substring of a word or number, "4711" in "INV-2024-004711") through the workspace's vocabulary
 * rather than a trigram index of all its text: the trigrams of its distinct tokens (`tok_N`) give the tokens
 * holding each piece of the value, and the unstemmed table (`raw_N`) the documents holding those tokens.
 */
import type Database from 'better-sqlite3';
import type { SearchField } from '../../domain/search/ports';
import { COLUMNS, foldText, type Column, type WorkspaceTables } from './sqlite-search-schema';

/** Tokens one piece of a value may stand for, at most; a piece found in more is not used to narrow the search. */
const MAX_CONTAINS_TOKENS = 2_000;
/** The shortest piece trigrams can find. */
const MIN_PIECE_LENGTH = 3;

/**
 * What a `contains` matches in one workspace: `expression` (over `raw_N`) finds the documents holding a token
 * that holds the value (it also scores them); when the value spans more than one token (or has separators
 * around it), `rids` are the documents whose text holds it, checked one by one. Both null: nothing matches.
 */
export interface ContainsMatch {
  expression: string | null;
  rids: number[] | null;
}

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

/** The range of row ids and the tables of the workspace searched. */
export interface SubstringScope {
  tables: WorkspaceTables;
  first: number;
  last: number;
}

/** Resolves the `contains` values of one search: each against the workspace's tokens, then its documents. */
export class SqliteSubstrings {
  constructor(private readonly db: Database.Database) {}

  resolve(scope: SubstringScope, field: SearchField, value: string): ContainsMatch {
    // A NUL is a separator, as the tokenizers take it (FTS5's query parser would end the string there).
    const wanted = foldText(value.replace(/\0/g, ' '));
    const pieces = wanted.match(/[\p{L}\p{N}]+/gu) ?? [];
    const columns = field === 'all' ? '' : `{${field}} : `;
    const narrowing: string[] = [];
    for (const [i, piece] of pieces.entries()) {
      if ([...piece].length < MIN_PIECE_LENGTH) continue;
      const tokens = this.tokensHolding(scope, piece, i > 0 || !wanted.startsWith(piece), i < pieces.length - 1 || !wanted.endsWith(piece));
      if (tokens === null) continue;
      if (!tokens.length) return { expression: null, rids: null };
      narrowing.push(`${columns}(${tokens.map(quote).join(' OR ')})`);
    }
    const expression = narrowing.length ? narrowing.map((part) => `(${part})`).join(' AND ') : null;
    // One piece, nothing around it: a document holding one of its tokens holds the value.
    if (expression && pieces.length === 1 && pieces[0] === wanted) return { expression, rids: null };
    return { expression, rids: this.verified(scope, field, wanted, expression) };
  }

  /**
   * The workspace's tokens that hold `piece` (starting with it when `atStart`, ending with it when `atEnd`: a
   * separator is next to it in the value); null when there are too many to be worth it.
   */
  private tokensHolding(scope: SubstringScope, piece: string, atStart: boolean, atEnd: boolean): string[] | null {
    const found = this.db
      .prepare<[string, number], string>(`SELECT token FROM ${scope.tables.tok} WHERE ${scope.tables.tok} MATCH ? LIMIT ?`)
      .pluck()
      .all(quote(piece), MAX_CONTAINS_TOKENS + 1);
    const tokens = found.filter((token) => (!atStart || token.startsWith(piece)) && (!atEnd || token.endsWith(piece)));
    return found.length > MAX_CONTAINS_TOKENS ? null : tokens;
  }

  /** The documents (of the candidates `expression` finds; every one without it) whose text holds the value. */
  private verified(scope: SubstringScope, field: SearchField, wanted: string, expression: string | null): number[] {
    const columns: readonly Column[] = field === 'all' ? COLUMNS : [field];
    const candidates = expression
      ? this.db
          .prepare<[string, number, number], { rid: number } & Record<Column, string>>(
            `SELECT rid, title, filename, content, labels, metadata FROM fts_source
             WHERE rid IN (SELECT rowid FROM ${scope.tables.raw} WHERE ${scope.tables.raw} MATCH ? AND rowid BETWEEN ? AND ?)`,
          )
          .iterate(expression, scope.first, scope.last)
      : this.db
          .prepare<[number, number], { rid: number } & Record<Column, string>>(
            `SELECT s.rid, s.title, s.filename, s.content, s.labels, s.metadata FROM fts_source AS s JOIN docs AS d ON d.rid = s.rid
             WHERE s.rid BETWEEN ? AND ? AND d.deleted = 0`,
          )
          .iterate(scope.first, scope.last);
    const rids: number[] = [];
    for (const row of candidates) if (columns.some((column) => foldText(row[column]).includes(wanted))) rids.push(row.rid);
    return rids;
  }
}
