import * as z from '../../../shared/zod';
import type { SearchField } from '../../../shared/domain/search/ports';
import { id, shape } from './registry';

/**
 * The fields a highlight names: every searchable field but `all`, which is a query's shorthand, never a field a
 * snippet comes from (both indexes highlight title, filename, content, labels and metadata each on its own).
 */
const HIGHLIGHTED_FIELDS = {
  title: 'title',
  filename: 'filename',
  content: 'content',
  labels: 'labels',
  metadata: 'metadata',
} as const satisfies { [F in Exclude<SearchField, 'all'>]: F };

/** One document a search found. */
export const SearchHit = shape(
  'SearchHit',
  'A document a search found, with its relevance and where the query matched it.',
  z.strictObject({
    document_id: id(),
    title: z.string(),
    // BM25 (SQLite) or OpenSearch's score: higher is more relevant; 0 when only unscored conditions matched.
    score: z.number().check(z.gte(0)),
    highlights: z.array(
      z.strictObject({
        field: z.enum(HIGHLIGHTED_FIELDS),
        // HTML: the document's text escaped, each match wrapped in <mark></mark>.
        snippet: z.string(),
      }),
    ),
  }),
);

/** Counts by value over the whole match set; a value no match has is left out, so every count is at least 1. */
const facetCounts = () => z.record(z.string(), z.int().check(z.gte(1)));

/** One page of search results, with the true total and facets over every match. */
export const SearchResults = shape(
  'SearchResults',
  'One page of the documents a search found, the number of matches in all and their facets.',
  z.strictObject({
    results: z.array(SearchHit).check(z.maxLength(100)),
    total: z.int().check(z.gte(0)),
    facets: z.strictObject({
      // By MIME type.
      mime_types: facetCounts(),
      // By label id (the ids a document's `labels` holds).
      labels: facetCounts(),
    }),
  }),
);
