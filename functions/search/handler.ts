import type { AppContainer } from '../../shared/container/app-container';
import type { SearchIndex } from '../../shared/domain/search/ports';
import { advancedSearch, searchDocuments } from '../../shared/domain/search/use-cases';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { advancedSearchBody, searchQuery } from './schemas';

/** What the search endpoints need beyond the app container: the index they query. */
export interface SearchServices {
  searchIndex: SearchIndex;
}

/** The P search endpoints: the search box (GET) and the advanced form (POST); any role may search. */
export const createSearchHandler = (c: AppContainer & SearchServices) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        key: 'GET /api/search',
        access: 'viewer',
        query: searchQuery,
        handle: async ({ query }) =>
          json(
            200,
            await searchDocuments(c, {
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
        handle: async ({ body }) =>
          json(
            200,
            await advancedSearch(c, {
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
