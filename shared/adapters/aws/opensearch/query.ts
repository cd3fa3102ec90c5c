import type {
  IndexedDocument,
  QueryNode,
  SearchField,
  SearchFilters,
  SearchHit,
  SearchRequest,
  SearchResults,
  SearchSortField,
} from '../../../domain/search/ports';
import { MARK_CLOSE, MARK_OPEN, markedToHtml, stripMarkers } from '../../../domain/search/text';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../domain/workspaces/workspace';

/**
 * Pure builders between the domain's search types and OpenSearch's JSON: index settings and mapping, the
 * document source, the search body (query DSL, filters, sort, highlight, aggregations) and the response's hits.
 * No I/O here, so every shape is unit-tested against the DSL it must produce.
 */

/**
 * Bump when the settings, the mapping or where entries live change: a migration builds `documents-v<N>` and
 * swaps the alias to it. v2: entries carry `workspace_id` and are keyed by workspace and document id (see
 * entryIdOf). v3: entries are routed by their workspace (see routingOf).
 */
export const INDEX_VERSION = 3;
export const DEFAULT_ALIAS = 'documents';
export const indexNameOf = (alias: string, version = INDEX_VERSION) => `${alias}-v${version}`;

/** Fuzzy words: one typo from 4 characters, two from 8, as the SQLite index allows (see maxEdits). */
export const FUZZINESS = 'AUTO:4,8';
/** Close spellings one fuzzy word may expand to, as many as the SQLite index tries. */
export const FUZZY_EXPANSIONS = 20;

/** The searchable text fields of the source, with the domain field each answers for and its weight. */
const TEXT_FIELDS = [
  { field: 'title', source: 'title', weight: 10, exact: true },
  { field: 'filename', source: 'filename', weight: 5, exact: true },
  { field: 'content', source: 'content', weight: 1, exact: false },
  { field: 'labels', source: 'label_names', weight: 3, exact: true },
  { field: 'metadata', source: 'metadata_values', weight: 2, exact: true },
] as const;

const textFieldsOf = (field: SearchField) => TEXT_FIELDS.filter((text) => field === 'all' || text.field === field);

/** Field names for a multi_match over the domain field, on one sub-field ('' for the stemmed field itself). */
const fieldsOf = (field: SearchField, subfield: '' | '.prefix' | '.trigram'): string[] =>
  textFieldsOf(field).map((text) => `${text.source}${subfield}^${text.weight}`);

/**
 * Analysis: `text` is porter-stemmed words (standard tokenizer, lowercase, ASCII folding, no stop words: the
 * same words as SQLite's porter unicode61), `prefix` is edge n-grams of words for `prefix*`, `trigram` is every
 * three characters of the text (spaces and punctuation included) for substrings such as "4711" in
 * "INV-2024-004711", and `exact` is a lower-cased keyword for whole-value comparison and sorting.
 * Primary shards are sized by data, not by workspaces (routing keeps each workspace on one shard whatever
 * their number); more of them is a new INDEX_VERSION, whose migration copies and routes every entry again.
 * No `routing_partition_size`: it is index-wide, so every workspace's search would ask that many shards
 * (docs/search-performance.md, "OpenSearch (the cloud side) at 10,000 workspaces").
 */
export const INDEX_SETTINGS = {
  number_of_shards: 1,
  number_of_replicas: 0,
  analysis: {
    tokenizer: {
      trigram: { type: 'ngram', min_gram: 3, max_gram: 3, token_chars: [] },
    },
    filter: {
      word_edges: { type: 'edge_ngram', min_gram: 1, max_gram: 20 },
    },
    analyzer: {
      text: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'porter_stem'] },
      prefix_index: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'word_edges'] },
      prefix_search: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
      trigram: { type: 'custom', tokenizer: 'trigram', filter: ['lowercase', 'asciifolding'] },
    },
    normalizer: {
      lower: { type: 'custom', filter: ['lowercase', 'asciifolding'] },
    },
  },
} as const;

const textField = (exact: boolean) =>
  ({
    type: 'text',
    analyzer: 'text',
    fields: {
      prefix: { type: 'text', analyzer: 'prefix_index', search_analyzer: 'prefix_search' },
      trigram: { type: 'text', analyzer: 'trigram' },
      ...(exact ? { exact: { type: 'keyword', normalizer: 'lower', ignore_above: 1024 } as const } : {}),
    },
  }) as const;

export const INDEX_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    id: { type: 'keyword' },
    workspace_id: { type: 'keyword' },
    deleted: { type: 'boolean' },
    title: textField(true),
    filename: textField(true),
    content: textField(false),
    label_names: textField(true),
    metadata_values: textField(true),
    labels: { type: 'keyword' },
    mime_type: { type: 'keyword' },
    status: { type: 'keyword' },
    ocr_confidence: { type: 'float' },
    size: { type: 'long' },
    created_at: { type: 'date' },
    updated_at: { type: 'date' },
  },
} as const;

/** The body that creates a versioned index with the alias pointing at it. */
export const createIndexBody = (alias: string) => ({ settings: INDEX_SETTINGS, mappings: INDEX_MAPPINGS, aliases: { [alias]: {} } });

/**
 * The `_id` of a workspace's entry for a document. Keyed by both, a write of one workspace can never replace
 * (nor a removal tombstone) another workspace's entry, even for an id the other holds: no read-before-write,
 * no race. Searches answer the source's `id`, the document's.
 */
export const entryIdOf = (workspaceId: string, documentId: string) => `${workspaceId}:${documentId}`;

/**
 * The routing value of a workspace's entries, on every write and every read: OpenSearch places an entry on the
 * shard its routing value hashes to, so all of a workspace's entries share one shard and its searches, listings
 * and multi-gets ask that shard only, however many shards the index has.
 */
export const routingOf = (workspaceId: string) => workspaceId;

/**
 * The script a migration copies entries of an older index with: entries written before workspaces existed
 * become the bootstrap workspace's and take their keyed `_id`; entries that have a workspace keep theirs; every
 * copy is routed by its workspace (as routingOf), whatever routing it had.
 */
export const ADOPT_SCRIPT = {
  lang: 'painless',
  source:
    "if (ctx._source.workspace_id == null) { ctx._source.workspace_id = params.bootstrap; } ctx._id = ctx._source.workspace_id + ':' + ctx._source.id; ctx._routing = ctx._source.workspace_id;",
  params: { bootstrap: BOOTSTRAP_WORKSPACE_ID },
} as const;

/** What OpenSearch stores of a workspace's document; highlight markers are taken out of every text first. */
export function toSource(workspaceId: string, document: IndexedDocument) {
  return {
    id: document.id,
    workspace_id: workspaceId,
    deleted: false,
    title: stripMarkers(document.title),
    filename: stripMarkers(document.filename),
    content: stripMarkers(document.content),
    label_names: document.labels.map((label) => stripMarkers(label.name)),
    metadata_values: Object.values(document.metadata)
      .filter((value) => value !== null)
      .map((value) => stripMarkers(String(value))),
    labels: document.labels.map((label) => label.id),
    mime_type: document.mime_type,
    status: document.status,
    ocr_confidence: document.ocr_confidence,
    size: document.size,
    created_at: document.created_at,
    updated_at: document.updated_at,
  };
}

/** The tombstone that replaces a removed document: it keeps the version, so older upserts stay rejected. */
export const tombstoneSource = (workspaceId: string, documentId: string) => ({ id: documentId, workspace_id: workspaceId, deleted: true });

type Dsl = Record<string, unknown>;

/** The query DSL of a QueryNode; `fuzzy` lets plain words match close spellings. */
export function buildQuery(node: QueryNode, fuzzy: boolean): Dsl {
  switch (node.kind) {
    case 'term':
      if (node.prefix) return { multi_match: { query: node.value, type: 'most_fields', fields: fieldsOf(node.field, '.prefix'), operator: 'and' } };
      return {
        multi_match: {
          query: node.value,
          type: 'most_fields',
          fields: fieldsOf(node.field, ''),
          operator: 'and',
          ...(fuzzy ? { fuzziness: FUZZINESS, fuzzy_transpositions: true, prefix_length: 0, max_expansions: FUZZY_EXPANSIONS } : {}),
        },
      };
    case 'phrase':
      return { multi_match: { query: node.value, type: 'phrase', fields: fieldsOf(node.field, '') } };
    case 'contains':
      return { multi_match: { query: node.value, type: 'phrase', fields: fieldsOf(node.field, '.trigram') } };
    case 'exact': {
      const fields = textFieldsOf(node.field).filter((text) => text.exact);
      if (!fields.length) throw new Error(`exact does not apply to ${node.field}`);
      return { bool: { should: fields.map((text) => ({ term: { [`${text.source}.exact`]: { value: node.value.toLowerCase() } } })), minimum_should_match: 1 } };
    }
    case 'and': {
      const must = node.children.filter((child) => child.kind !== 'not').map((child) => buildQuery(child, fuzzy));
      const mustNot = node.children.flatMap((child) => (child.kind === 'not' ? [buildQuery(child.child, fuzzy)] : []));
      return { bool: { must, ...(mustNot.length ? { must_not: mustNot } : {}) } };
    }
    case 'or':
      return { bool: { should: node.children.map((child) => buildQuery(child, fuzzy)), minimum_should_match: 1 } };
    case 'not':
      return { bool: { must_not: [buildQuery(node.child, fuzzy)] } };
  }
}

/**
 * Filters as non-scoring clauses: the workspace first, always (hits, total and facets are all counted over
 * the filtered query); removed documents (tombstones) are always left out.
 */
export function buildFilters(workspaceId: string, filters: SearchFilters): Dsl[] {
  const clauses: Dsl[] = [{ term: { workspace_id: workspaceId } }, { term: { deleted: false } }];
  if (filters.mimeTypes?.length) clauses.push({ terms: { mime_type: filters.mimeTypes } });
  if (filters.labels?.length) clauses.push({ terms: { labels: filters.labels } });
  if (filters.status?.length) clauses.push({ terms: { status: filters.status } });
  if (filters.dateFrom || filters.dateTo) {
    clauses.push({ range: { created_at: { ...(filters.dateFrom ? { gte: filters.dateFrom } : {}), ...(filters.dateTo ? { lte: filters.dateTo } : {}) } } });
  }
  if (filters.minConfidence !== undefined) clauses.push({ range: { ocr_confidence: { gte: filters.minConfidence } } });
  return clauses;
}

const SORT_FIELDS: Record<SearchSortField, string> = {
  relevance: '_score',
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'title.exact',
  size: 'size',
};

/** The sort, with the id last so that equal keys keep one order and pages never overlap. */
export const buildSort = (sort: SearchRequest['sort']): Dsl[] => [
  ...sort.map((key) => ({ [SORT_FIELDS[key.field]]: { order: key.order } })),
  { id: { order: 'asc' } },
];

const HIGHLIGHTED = TEXT_FIELDS.flatMap((text) =>
  ['', '.prefix', '.trigram'].map((subfield) => [`${text.source}${subfield}`, text.field === 'content'] as const),
);

/** Highlights of the stemmed, prefix and trigram fields, with our markers (escaped and turned into <mark> later). */
export const buildHighlight = () => ({
  pre_tags: [MARK_OPEN],
  post_tags: [MARK_CLOSE],
  encoder: 'default',
  require_field_match: true,
  fields: Object.fromEntries(
    HIGHLIGHTED.map(([field, isContent]) => [field, isContent ? { fragment_size: 160, number_of_fragments: 1, no_match_size: 0 } : { number_of_fragments: 0 }]),
  ),
});

/** Facet counts over the whole match set (a workspace's entries are on one shard: the counts are exact). */
export const buildAggregations = () => ({
  mime_types: { terms: { field: 'mime_type', size: 100 } },
  labels: { terms: { field: 'labels', size: 1000 } },
});

/**
 * The whole search body of one workspace's request: one page, the true total, facets and (when asked)
 * highlights, all of the workspace's entries only (the aggregations run over the filtered query).
 */
export function buildSearchBody(workspaceId: string, request: SearchRequest): Dsl {
  return {
    query: { bool: { must: [buildQuery(request.query, request.fuzzy)], filter: buildFilters(workspaceId, request.filters) } },
    from: (request.page - 1) * request.perPage,
    size: request.perPage,
    track_total_hits: true,
    sort: buildSort(request.sort),
    // Scores are wanted even when sorting by a field: the result shape carries them.
    track_scores: true,
    _source: ['id', 'title'],
    aggs: buildAggregations(),
    ...(request.highlight ? { highlight: buildHighlight() } : {}),
  };
}

interface SearchResponseBody {
  hits: {
    total: { value: number } | number;
    hits: { _id: string; _score: number | null; _source?: { id?: string; title?: string }; highlight?: Record<string, string[]> }[];
  };
  aggregations?: Record<string, { buckets: { key: string; doc_count: number }[] }>;
}

/** Adjacent marks (overlapping trigrams of one match) become one. */
const mergeMarks = (marked: string) => marked.replaceAll(`${MARK_CLOSE}${MARK_OPEN}`, '');

/** One highlight per domain field: the stemmed field's snippet first, then the prefix one, then the trigram one. */
function highlightsOf(highlight: Record<string, string[]> | undefined): SearchHit['highlights'] {
  if (!highlight) return [];
  const result: SearchHit['highlights'] = [];
  for (const text of TEXT_FIELDS) {
    const fragments = highlight[text.source] ?? highlight[`${text.source}.prefix`] ?? highlight[`${text.source}.trigram`];
    if (fragments?.length) result.push({ field: text.field, snippet: markedToHtml(mergeMarks(fragments.join(' … '))) });
  }
  return result;
}

/** The domain's results out of a search response. */
export function parseSearchResponse(body: SearchResponseBody): SearchResults {
  const total = typeof body.hits.total === 'number' ? body.hits.total : body.hits.total.value;
  const bucketsOf = (name: string) =>
    Object.fromEntries((body.aggregations?.[name]?.buckets ?? []).map((bucket) => [bucket.key, bucket.doc_count]));
  return {
    results: body.hits.hits.map((hit) => ({
      // The `_id` is the entry's (workspace and document): the document's id is in the source.
      document_id: hit._source?.id ?? hit._id,
      title: hit._source?.title ?? '',
      score: hit._score ?? 0,
      highlights: highlightsOf(hit.highlight),
    })),
    total,
    facets: { mime_types: bucketsOf('mime_types'), labels: bucketsOf('labels') },
  };
}
