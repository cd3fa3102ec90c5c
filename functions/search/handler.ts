import { inWorkspace, type AppContainer } from '../../shared/container/app-container';
import { advancedSearch, searchDocuments } from '../../shared/domain/search/use-cases';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { advancedSearchBody, searchQuery } from './schemas';

/**
 * The P search endpoints: the search box (GET) and the advanced form (POST); any role may search, and finds
 * only the documents of their workspace.
 */
export const createSearchHandler = (c: AppContainer) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        key: 'GET /api/search',
        access: 'viewer',
        query: searchQuery,
        handle: async ({ query, principal }) =>
          json(
            200,
            await searchDocuments(inWorkspace(c, principal), {
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
        key: 'POST /api/search/advanced',
        access: 'viewer',
        body: advancedSearchBody,
        handle: async ({ body, principal }) =>
          json(
            200,
            await advancedSearch(inWorkspace(c, principal), {
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
