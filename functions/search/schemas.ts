import * as z from 'zod';
import { DOCUMENT_STATUSES } from '../../shared/domain/documents/document';
import { SEARCH_FIELDS, SEARCH_SORT_FIELDS, type SearchFilters, type SearchSortField } from '../../shared/domain/search/ports';
import { CLAUSE_TYPES } from '../../shared/domain/search/advanced-search';
import { booleanField, isoDateBound, pageQuery } from '../../shared/http/fields';
import { unsafeInput } from '../../shared/http/input-safety';

const mimeTypes = z.array(z.string().trim().min(1).max(255)).max(50);
const labelIds = z.array(z.uuid('must be a label id (UUID)')).max(50);
const confidence = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

/** The `filters` of GET /api/search, once its JSON is read. */
const searchBoxFilters = z
  .strictObject({
    mime_types: mimeTypes.optional(),
    labels: labelIds.optional(),
    date_from: isoDateBound(false).optional(),
    date_to: isoDateBound(true).optional(),
    status: z.union([z.enum(DOCUMENT_STATUSES), z.array(z.enum(DOCUMENT_STATUSES))]).optional(),
    min_confidence: confidence.optional(),
  })
  .transform(
    (filters): SearchFilters => ({
      mimeTypes: filters.mime_types,
      labels: filters.labels,
      dateFrom: filters.date_from,
      dateTo: filters.date_to,
      status: filters.status === undefined ? undefined : [filters.status].flat(),
      minConfidence: filters.min_confidence,
    }),
  );

/**
 * A JSON-encoded string: malformed JSON is a 400 naming `filters` and what JSON.parse said; what it holds is
 * checked as a JSON body is (reserved names, NUL, unpaired surrogates), naming e.g. `filters.labels.0`.
 */
const jsonFilters = z
  .string()
  .transform((value, context) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `is not valid JSON (${(error as Error).message})` });
      return z.NEVER;
    }
    const unsafe = unsafeInput(parsed);
    for (const { path, reason } of unsafe) context.addIssue({ code: 'custom', message: reason, path });
    return unsafe.length ? z.NEVER : parsed;
  })
  .pipe(searchBoxFilters);

export const searchQuery = pageQuery.extend({
  q: z.string('is required: give the words to search for').trim().min(1, 'is required: give the words to search for'),
  filters: jsonFilters.optional().transform((filters) => filters ?? {}),
  highlight: booleanField.default(true),
  fuzzy: booleanField.default(false),
});

const named = (what: string, options: readonly string[]) => (issue: { input?: unknown }) =>
  `unknown ${what} ${JSON.stringify(issue.input)}: use one of ${options.join(', ')}`;

const clause = z.strictObject({
  field: z.enum(SEARCH_FIELDS, { error: named('field', SEARCH_FIELDS) }),
  value: z.string().trim().min(1, 'must not be empty').max(500),
  type: z.enum(CLAUSE_TYPES, { error: named('type', CLAUSE_TYPES) }),
});
const clauses = z.array(clause).max(20).default([]);

/** Sort keys: the index's fields, plus `date` (created_at) and `score` (relevance) as a search form names them. */
const SORT_ALIASES: Record<string, SearchSortField> = { date: 'created_at', score: 'relevance' };
const SORT_NAMES = [...SEARCH_SORT_FIELDS, ...Object.keys(SORT_ALIASES)];
const sortKey = z.strictObject({
  field: z
    .string()
    .refine((field) => SORT_NAMES.includes(field), { error: (issue) => named('sort field', SORT_NAMES)(issue) })
    .transform((field) => SORT_ALIASES[field] ?? (field as SearchSortField)),
  order: z.enum(['asc', 'desc'], "must be 'asc' or 'desc'").default('desc'),
});

export const advancedSearchBody = z.strictObject({
  query: z.strictObject({ must: clauses, should: clauses, must_not: clauses }),
  filters: z
    .strictObject({
      date_range: z.strictObject({ from: isoDateBound(false).optional(), to: isoDateBound(true).optional() }).optional(),
      mime_types: mimeTypes.optional(),
      min_confidence: confidence.optional(),
      labels: labelIds.optional(),
      status: z.array(z.enum(DOCUMENT_STATUSES)).optional(),
    })
    .default({}),
  sort: z.array(sortKey).max(5).default([]),
  page: pageQuery.shape.page,
  per_page: pageQuery.shape.per_page,
  highlight: z.boolean().default(true),
  fuzzy: z.boolean().default(false),
});
