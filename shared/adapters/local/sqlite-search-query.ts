/** The SQL of a search: a query tree turned into FTS5 expressions and conditions over `docs d`, filters, orders. */
import type { QueryNode, SearchField, SearchFilters, SearchRequest, SearchSortField } from '../../domain/search/ports';
import type { DocumentQuery } from '../../domain/documents/ports';
import { WEIGHTS, type WorkspaceTables } from './sqlite-search-schema';
import type { ContainsMatch } from './sqlite-search-substrings';

export type SqlValue = string | number | null;

interface Sql {
  sql: string;
  params: SqlValue[];
}

/** An FTS5 string. Its query parser reads C strings, so a NUL would end it mid-way ("unterminated string"):
 * it is a separator here, as the tokenizers treat it. */
const quote = (value: string) => `"${value.replace(/"/g, '""').replace(/\0/g, ' ')}"`;
const columnFilter = (field: SearchField) => (field === 'all' ? '' : `{${field}} : `);

/** Listing sorts and their columns; text sorts ignore case, as the table's own listing does. */
export const LISTING_ORDER: Record<DocumentQuery['sort'], string> = {
  created_at: 'd.created_at',
  updated_at: 'd.updated_at',
  title: 'd.title COLLATE NOCASE',
  filename: 'd.filename COLLATE NOCASE',
  size: 'd.size',
};

const SORT_COLUMNS: Record<SearchSortField, string> = {
  relevance: 'score',
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'title COLLATE NOCASE',
  size: 'size',
};

/** ORDER BY of the requested sort; the id breaks ties so that every order is total and pages never overlap. */
export function orderBy(sort: SearchRequest['sort']): string {
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

/** The row ids of one workspace (see `rowidRange`) and its full-text tables: every lookup stays in them. */
export interface WorkspaceRange {
  base: number;
  first: number;
  last: number;
  tables: WorkspaceTables;
}

/** The workspace's words a query word or prefix stands for (see SqliteVocabulary), and what a substring matches. */
export interface WorkspaceVocabulary {
  alternatives(word: string): string[];
  prefixTerms(prefix: string): { prefix: string | null; words: string[] } | null;
  contains(field: SearchField, value: string): ContainsMatch;
  /** The pair table's terms of a phrase of common words (see PairText.phraseTerms), else null. */
  pairTerms(phrase: string): string[] | null;
}

/** A full-text table and the expression to match in it. */
export interface FtsSource {
  table: string;
  expression: string;
}

/**
 * Turns one workspace's request into SQL over `docs d` and the workspace's full-text tables: the match set with
 * a score, and the expressions for highlights. Every condition on `d` is bounded to the workspace's row ids.
 */
export class QueryPlan {
  constructor(
    private readonly request: SearchRequest,
    private readonly range: WorkspaceRange,
    private readonly vocabulary: WorkspaceVocabulary,
  ) {}

  /** Each `contains` leaf resolved once per search (it reads the vocabulary, maybe documents). */
  private readonly resolved = new Map<QueryNode, ContainsMatch>();

  private containsMatch(node: QueryNode & { kind: 'contains' }): ContainsMatch {
    let match = this.resolved.get(node);
    if (!match) this.resolved.set(node, (match = this.vocabulary.contains(node.field, node.value)));
    return match;
  }

  /**
   * One row: the matches as a comma-separated list of sequences (row id minus the range's base, so they fit
   * 32 bits), before filters (counted in memory). A words query is FTS5 alone, no row of `docs` read.
   */
  matchSet(): Sql {
    const { query } = this.request;
    const { base, first, last } = this.range;
    if (isWords(query)) {
      const { table, expression } = this.wordsSource();
      return { sql: `SELECT group_concat(rowid - CAST(? AS INTEGER)) FROM ${table} WHERE ${table} MATCH ? AND rowid BETWEEN ? AND ?`, params: [base, expression, first, last] };
    }
    const condition = this.condition(query);
    return {
      sql: `SELECT group_concat(d.rid - CAST(? AS INTEGER)) FROM docs AS d WHERE d.rid BETWEEN ? AND ? AND d.deleted = 0 AND ${condition.sql}`,
      params: [base, first, last, ...condition.params],
    };
  }

  /** Whether FTS5 alone can order the page: words only, by relevance, nothing filtered (its rows are all live). */
  rankedByFts(): boolean {
    const { query, sort, filters } = this.request;
    const bySort = sort.length === 1 && sort[0]!.field === 'relevance' && sort[0]!.order === 'desc';
    return bySort && isWords(query) && !filterSql(filters).sql;
  }

  /**
   * Where FTS5 matches and scores a words-only query: a phrase of common words in the workspace's pair table
   * (one term per adjacent pair; the same matches and the same BM25 scores, see sqlite-search-pairs.ts), any
   * other query in `fts_N`.
   */
  wordsSource(): FtsSource {
    const { query } = this.request;
    const terms = query.kind === 'phrase' ? this.vocabulary.pairTerms(query.value) : null;
    if (terms && query.kind === 'phrase') return { table: this.range.tables.pairs, expression: `${columnFilter(query.field)}${quote(terms.join(' '))}` };
    return { table: this.range.tables.fts, expression: this.words(query) };
  }

  /**
   * SELECT of the workspace's matching documents (rid, id, title, score and the sort keys), filters applied.
   * For words, the range bounds FTS5's rowids (`fts.rowid`, not `d.rid`): FTS5 must drive the join (its
   * matches are fewer than a workspace's rows), not a scan of the workspace probing FTS5 row by row.
   */
  matches(): Sql {
    const filters = filterSql(this.request.filters);
    const columns = 'd.rid, d.id, d.title, d.created_at, d.updated_at, d.size';
    const { query } = this.request;
    const { first, last } = this.range;
    const { fts } = this.range.tables;
    if (isWords(query)) {
      const { table, expression } = this.wordsSource();
      return {
        sql: `SELECT ${columns}, -bm25(${table}, ${WEIGHTS}) AS score FROM ${table} JOIN docs AS d ON d.rid = ${table}.rowid
              WHERE ${table} MATCH ? AND ${table}.rowid BETWEEN ? AND ? AND d.deleted = 0${filters.sql}`,
        params: [expression, first, last, ...filters.params],
      };
    }
    const condition = this.condition(query);
    const wordScore = this.highlightExpression();
    const containsScore = this.containsExpression();
    // Each score is one FTS5 pass, materialized: a join evaluated row by row would restart BM25 (and its
    // counts over the table) for every row of `d`.
    const scores: string[] = [];
    const joins: string[] = [];
    const params: SqlValue[] = [];
    if (wordScore) {
      scores.push(`ws AS MATERIALIZED (SELECT rowid AS rid, -bm25(${fts}, ${WEIGHTS}) AS s FROM ${fts} WHERE ${fts} MATCH ? AND rowid BETWEEN ? AND ?)`);
      joins.push('LEFT JOIN ws ON ws.rid = d.rid');
      params.push(wordScore, first, last);
    }
    if (containsScore) {
      // Scored by stem in the positional table: BM25 over the unstemmed one (no positions) would re-read each text.
      scores.push(`cs AS MATERIALIZED (SELECT rowid AS rid, -bm25(${fts}, ${WEIGHTS}) AS s FROM ${fts} WHERE ${fts} MATCH ? AND rowid BETWEEN ? AND ?)`);
      joins.push('LEFT JOIN cs ON cs.rid = d.rid');
      params.push(containsScore, first, last);
    }
    const score = [wordScore ? 'coalesce(ws.s, 0)' : null, containsScore ? 'coalesce(cs.s, 0)' : null].filter(Boolean).join(' + ') || '0';
    return {
      sql: `${scores.length ? `WITH ${scores.join(', ')} ` : ''}SELECT ${columns}, ${score} AS score FROM docs AS d ${joins.join(' ')}
            WHERE d.rid BETWEEN ? AND ? AND d.deleted = 0 AND ${condition.sql}${filters.sql}`,
      params: [...params, first, last, ...condition.params, ...filters.params],
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

  /** The tokens of every positive `contains`, as one OR: it scores their matches (a superset, by stem). */
  private containsExpression(): string | null {
    const expressions = positiveLeaves(this.request.query).flatMap((leaf) => {
      const expression = leaf.kind === 'contains' ? this.containsMatch(leaf).expression : null;
      return expression ? [`(${expression})`] : [];
    });
    return expressions.length ? expressions.join(' OR ') : null;
  }

  /** The FTS5 expression of a words-only subtree. FTS5's NOT is binary ("a NOT b"), hence the grouping. */
  private words(node: QueryNode): string {
    switch (node.kind) {
      case 'term': {
        if (node.prefix) return this.prefix(node.field, node.value);
        const alternatives = this.request.fuzzy ? this.vocabulary.alternatives(node.value) : [];
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

  /** `prefix*`: the words it stands for in the workspace (none: an empty phrase, which matches nothing), else FTS5's prefix. */
  private prefix(field: SearchField, value: string): string {
    const terms = this.vocabulary.prefixTerms(value);
    if (!terms) return `${columnFilter(field)}${quote(value)} *`;
    const parts = [...(terms.prefix ? [`${quote(terms.prefix)} *`] : []), ...terms.words.map(quote)];
    return `${columnFilter(field)}(${parts.length ? parts.join(' OR ') : '""'})`;
  }

  /** A boolean SQL condition on `d` for any tree: words through FTS5, substrings through the trigram table. */
  private condition(node: QueryNode): Sql {
    const { first, last } = this.range;
    const { fts, raw } = this.range.tables;
    if (node.kind !== 'not' && isWords(node)) {
      return { sql: `d.rid IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? AND rowid BETWEEN ? AND ?)`, params: [this.words(node), first, last] };
    }
    switch (node.kind) {
      case 'contains': {
        const match = this.containsMatch(node);
        if (match.rids) return { sql: 'd.rid IN (SELECT value FROM json_each(?))', params: [JSON.stringify(match.rids)] };
        if (!match.expression) return { sql: '0', params: [] };
        return { sql: `d.rid IN (SELECT rowid FROM ${raw} WHERE ${raw} MATCH ? AND rowid BETWEEN ? AND ?)`, params: [match.expression, first, last] };
      }
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


/** The rowids of `group_concat(rowid)`: parsed by hand, since a match set can hold every document. */
export function parseRowids(list: string | null): Uint32Array {
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
