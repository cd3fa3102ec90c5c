import { validationError } from '../errors';
import { MAX_REACHABLE_RESULTS, type SearchResults } from './ports';

/**
 * Refuses a page that starts beyond what paging may reach (P: at most 1000 results). A 400 that names the
 * limit tells a client more than an empty page would; a page that straddles the limit is cut at it.
 */
export function assertReachable(page: number, perPage: number): void {
  if ((page - 1) * perPage >= MAX_REACHABLE_RESULTS) {
    throw validationError(`Only the first ${MAX_REACHABLE_RESULTS} results can be reached by paging`, [
      { field: 'page', reason: `page ${page} of ${perPage} starts beyond result ${MAX_REACHABLE_RESULTS}: narrow the query instead` },
    ]);
  }
}

/** The page's results, cut at the reachable limit; total and facets are left as the index counted them. */
export function withinReach(results: SearchResults, page: number, perPage: number): SearchResults {
  const room = MAX_REACHABLE_RESULTS - (page - 1) * perPage;
  return results.results.length > room ? { ...results, results: results.results.slice(0, room) } : results;
}
