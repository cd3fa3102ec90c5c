import type { QueryNode, SearchFilters, SearchResults, SearchDeps } from './ports';
import { parseSearchQuery, MIN_CONTAINS_LENGTH } from './query-parser';
import { assertReachable, withinReach } from './reachable-results';

/** A search box query, as GET /api/search carries it (already checked for types and bounds). */
export interface SearchBoxRequest {
  q: string;
  page: number;
  perPage: number;
  filters: SearchFilters;
  highlight: boolean;
  fuzzy: boolean;
}

/**
 * A word with a digit in it is most likely a piece of a code (an invoice or order number), which a search box
 * user expects to find inside the whole code: "4711" finds "INV-2024-004711". Such a word also matches as a
 * substring; other words match by stem only (a prefix* finds the start of a word).
 */
export function widenCodes(node: QueryNode): QueryNode {
  switch (node.kind) {
    case 'term':
      return !node.prefix && /\p{N}/u.test(node.value) && [...node.value].length >= MIN_CONTAINS_LENGTH
        ? { kind: 'or', children: [node, { kind: 'contains', field: node.field, value: node.value }] }
        : node;
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map(widenCodes) };
    case 'not':
      return { kind: 'not', child: widenCodes(node.child) };
    default:
      return node;
  }
}

/**
 * GET /api/search: parses the search box syntax (see parseSearchQuery), searches by relevance and returns one
 * page with the true total and facets over all matches. Deleted documents are never returned (the index
 * holds tombstones, not documents, for them).
 */
export async function searchDocuments(deps: SearchDeps, request: SearchBoxRequest): Promise<SearchResults> {
  assertReachable(request.page, request.perPage);
  const query = widenCodes(parseSearchQuery(request.q));
  const results = await deps.searchIndex.search({
    query,
    filters: request.filters,
    fuzzy: request.fuzzy,
    highlight: request.highlight,
    sort: [{ field: 'relevance', order: 'desc' }],
    page: request.page,
    perPage: request.perPage,
  });
  return withinReach(results, request.page, request.perPage);
}
