import type { HttpGate } from '../../shared/container/kit/request-gate';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import type { Clock } from '../../shared/domain/clock';
import type { WorkspaceUsageMeter } from '../../shared/domain/usage/ports';
import type { SearchResults, SearchDeps } from '../../shared/domain/search/ports';
import { advancedSearch } from '../../shared/domain/search/advanced-search';
import { searchDocuments } from '../../shared/domain/search/search-documents';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** Runs a search and counts it in the workspace's usage (`search_requests`): one that ran, not one refused. */
async function counted<R>(
  scoped: SearchDeps & { usageMeter: WorkspaceUsageMeter },
  search: (deps: SearchDeps, request: R) => Promise<SearchResults>,
  request: R,
): Promise<SearchResults> {
  const results = await search(scoped, request);
  await scoped.usageMeter.count({ search_requests: 1 });
  return results;
}

/** What the search endpoints use. */
export type SearchHandlerDeps = HttpGate & { clock: Clock } & WorkspaceScoped<SearchDeps & { workspaceId: string; usageMeter: WorkspaceUsageMeter }>;

/**
 * The P search endpoints: the search box (GET) and the advanced form (POST); any role may search, and finds
 * only the documents of their workspace.
 */
export const createSearchHandler = (c: SearchHandlerDeps) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.search,
        handle: async ({ query, principal }) =>
          json(
            200,
            await counted(inWorkspace(c, principal), searchDocuments, {
              q: query.q,
              page: query.page,
              perPage: query.per_page,
              filters: query.filters,
              highlight: query.highlight,
              fuzzy: query.fuzzy,
            }),
          ),
      }),
      route({
        ...routes.advancedSearch,
        handle: async ({ body, principal }) =>
          json(
            200,
            await counted(inWorkspace(c, principal), advancedSearch, {
              must: body.query.must,
              should: body.query.should,
              mustNot: body.query.must_not,
              filters: {
                dateFrom: body.filters.date_range?.from,
                dateTo: body.filters.date_range?.to,
                mimeTypes: body.filters.mime_types,
                minConfidence: body.filters.min_confidence,
                labels: body.filters.labels,
                status: body.filters.status,
              },
              sort: body.sort,
              page: body.page,
              perPage: body.per_page,
              highlight: body.highlight,
              fuzzy: body.fuzzy,
            }),
          ),
      }),
    ],
  });
