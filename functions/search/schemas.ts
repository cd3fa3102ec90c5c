import * as z from '../../shared/zod';
import { DOCUMENT_STATUSES } from '../../shared/domain/documents/document';
import {
  SEARCH_FIELDS,
  SEARCH_SORT_FIELDS,
  type SearchFilters,
  type SearchSortField,
} from '../../shared/domain/search/ports';
import { CLAUSE_TYPES } from '../../shared/domain/search/advanced-search';
import { booleanField, isoDateBound, pageFields } from '../../shared/http/fields';
import { unsafeInput } from '../../shared/http/input-safety';
import { contract, type RouteContracts } from '../../shared/http/route';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

const mimeTypes = () =>
  z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(255))).check(z.maxLength(50));
const labelIds = () => z.array(z.uuid('must be a label id (UUID)')).check(z.maxLength(50));
const confidence = () =>
  z.number().check(z.gte(0, 'must be between 0 and 1'), z.lte(1, 'must be between 0 and 1'));

/** The `filters` of GET /api/search, once its JSON is read. */
const searchBoxFilters = () =>
  z.pipe(
    z.strictObject({
      mime_types: z.optional(mimeTypes()),
      labels: z.optional(labelIds()),
      date_from: z.optional(isoDateBound(false)),
      date_to: z.optional(isoDateBound(true)),
      status: z.optional(z.union([z.enum(DOCUMENT_STATUSES), z.array(z.enum(DOCUMENT_STATUSES))])),
      min_confidence: z.optional(confidence()),
    }),
    z.transform((filters): SearchFilters => ({
      mimeTypes: filters.mime_types,
      labels: filters.labels,
      dateFrom: filters.date_from,
      dateTo: filters.date_to,
      status: filters.status === undefined ? undefined : [filters.status].flat(),
      minConfidence: filters.min_confidence,
    })),
  );

/**
 * A JSON-encoded string: malformed JSON is a 400 naming `filters` and what JSON.parse said; what it holds is
 * checked as a JSON body is (reserved names, NUL, unpaired surrogates), naming e.g. `filters.labels.0`.
 */
const jsonFilters = () =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((value, context) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(value);
        } catch (error) {
          context.issues.push({
            code: 'custom',
            message: `is not valid JSON (${(error as Error).message})`,
            input: value,
          });
          return z.NEVER;
        }
        const unsafe = unsafeInput(parsed);
        for (const { path, reason } of unsafe)
          context.issues.push({ code: 'custom', message: reason, path, input: value });
        return unsafe.length ? z.NEVER : parsed;
      }),
    ),
    searchBoxFilters(),
  );

export const searchQuery = z.lazy(() =>
  z.strictObject({
    ...pageFields(),
    q: z
      .string('is required: give the words to search for')
      .check(z.trim(), z.minLength(1, 'is required: give the words to search for')),
    filters: z.pipe(
      z.optional(jsonFilters()),
      z.transform((filters) => filters ?? {}),
    ),
    highlight: z._default(booleanField(), true),
    fuzzy: z._default(booleanField(), false),
  }),
);

const named = (what: string, options: readonly string[]) => (issue: { input?: unknown }) =>
  `unknown ${what} ${JSON.stringify(issue.input)}: use one of ${options.join(', ')}`;

const clause = () =>
  z.strictObject({
    field: z.enum(SEARCH_FIELDS, { error: named('field', SEARCH_FIELDS) }),
    value: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(500)),
    type: z.enum(CLAUSE_TYPES, { error: named('type', CLAUSE_TYPES) }),
  });
const clauses = () => z._default(z.array(clause()).check(z.maxLength(20)), []);

/** Sort keys: the index's fields, plus `date` (created_at) and `score` (relevance) as a search form names them. */
const SORT_ALIASES: Record<string, SearchSortField> = { date: 'created_at', score: 'relevance' };
const SORT_NAMES = [...SEARCH_SORT_FIELDS, ...Object.keys(SORT_ALIASES)];
const sortKey = () =>
  z.strictObject({
    field: z.pipe(
      z
        .string()
        .check(
          z.refine((field) => SORT_NAMES.includes(field), { error: (issue) => named('sort field', SORT_NAMES)(issue) }),
        ),
      z.transform((field) => SORT_ALIASES[field] ?? (field as SearchSortField)),
    ),
    order: z._default(z.enum(['asc', 'desc'], "must be 'asc' or 'desc'"), 'desc'),
  });

export const advancedSearchBody = z.lazy(() =>
  z.strictObject({
    query: z.strictObject({ must: clauses(), should: clauses(), must_not: clauses() }),
    filters: z._default(
      z.strictObject({
        date_range: z.optional(
          z.strictObject({ from: z.optional(isoDateBound(false)), to: z.optional(isoDateBound(true)) }),
        ),
        mime_types: z.optional(mimeTypes()),
        min_confidence: z.optional(confidence()),
        labels: z.optional(labelIds()),
        status: z.optional(z.array(z.enum(DOCUMENT_STATUSES))),
      }),
      {},
    ),
    sort: z._default(z.array(sortKey()).check(z.maxLength(5)), []),
    ...pageFields(),
    highlight: z._default(z.boolean(), true),
    fuzzy: z._default(z.boolean(), false),
  }),
);

/** The search routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  search: contract({ key: 'GET /api/search', access: 'viewer', query: searchQuery }),
  advancedSearch: contract({ key: 'POST /api/search/advanced', access: 'viewer', body: advancedSearchBody }),
} as const satisfies RouteContracts;
