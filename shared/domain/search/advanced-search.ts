import { validationError } from '../errors';
import type { QueryNode, SearchField, SearchFilters, SearchResults, SearchSortField, SearchDeps } from './ports';
import { assertSearchableQuery, MIN_CONTAINS_LENGTH } from './query-parser';
import { assertReachable, withinReach } from './reachable-results';

export const CLAUSE_TYPES = ['match', 'contains', 'exact'] as const;

export type ClauseType = (typeof CLAUSE_TYPES)[number];

/** One condition of the advanced search. */
export interface SearchClause {
  field: SearchField;
  value: string;
  type: ClauseType;
}

/** POST /api/search/advanced, already checked for types and bounds. */
export interface AdvancedSearchRequest {
  must: SearchClause[];
  should: SearchClause[];
  mustNot: SearchClause[];
  filters: SearchFilters;
  sort: { field: SearchSortField; order: 'asc' | 'desc' }[];
  page: number;
  perPage: number;
  highlight: boolean;
  fuzzy: boolean;
}

/**
 * One clause as a query: `match` requires every word of the value (by stem), `contains` finds the value inside
 * words or numbers ("4711" in "INV-2024-004711"), `exact` compares the whole field, case-insensitively.
 */
function clauseNode(clause: SearchClause, at: string): QueryNode {
  const value = clause.value.trim();
  if (clause.type === 'contains') {
    if ([...value].length < MIN_CONTAINS_LENGTH) {
      throw validationError('A contains condition is too short', [{ field: `${at}.value`, reason: `must be at least ${MIN_CONTAINS_LENGTH} characters for contains` }]);
    }
    return { kind: 'contains', field: clause.field, value };
  }
  if (clause.type === 'exact') {
    if (clause.field === 'content') {
      throw validationError('exact does not apply to content', [{ field: `${at}.type`, reason: 'exact compares whole short fields (title, filename, labels, metadata): use match or contains on content' }]);
    }
    return { kind: 'exact', field: clause.field, value };
  }
  const words = value.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (!words.length) throw validationError('A match condition has no words', [{ field: `${at}.value`, reason: 'has no words to search for' }]);
  const terms: QueryNode[] = words.map((word) => ({ kind: 'term', field: clause.field, value: word }));
  return terms.length === 1 ? terms[0]! : { kind: 'and', children: terms };
}

/**
 * The advanced query as one tree: every `must`, at least one `should` (when there are any), no `must_not`.
 * `should` is a requirement, not only a boost: a clause that may or may not match cannot be expressed in the
 * shared QueryNode, and "any of these" is what a form with alternatives usually means.
 */
export function advancedQuery(request: Pick<AdvancedSearchRequest, 'must' | 'should' | 'mustNot'>): QueryNode {
  const must = request.must.map((clause, i) => clauseNode(clause, `query.must.${i}`));
  const should = request.should.map((clause, i) => clauseNode(clause, `query.should.${i}`));
  const mustNot = request.mustNot.map((clause, i): QueryNode => ({ kind: 'not', child: clauseNode(clause, `query.must_not.${i}`) }));
  const children = [...must, ...(should.length > 1 ? [{ kind: 'or', children: should } as QueryNode] : should), ...mustNot];
  if (must.length + should.length === 0) {
    throw validationError('The query has no positive condition', [{ field: 'query', reason: 'give at least one must or should condition' }]);
  }
  const node: QueryNode = children.length === 1 ? children[0]! : { kind: 'and', children };
  assertSearchableQuery(node);
  return node;
}

/** POST /api/search/advanced: the same result shape as the search box, sorted as asked (relevance by default). */
export async function advancedSearch(deps: SearchDeps, request: AdvancedSearchRequest): Promise<SearchResults> {
  assertReachable(request.page, request.perPage);
  const query = advancedQuery(request);
  const results = await deps.searchIndex.search({
    query,
    filters: request.filters,
    fuzzy: request.fuzzy,
    highlight: request.highlight,
    sort: request.sort.length ? request.sort : [{ field: 'relevance', order: 'desc' }],
    page: request.page,
    perPage: request.perPage,
  });
  return withinReach(results, request.page, request.perPage);
}
