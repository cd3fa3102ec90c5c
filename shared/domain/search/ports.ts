import type { DocumentRecord } from '../documents/document';
import type { DocumentContent } from '../files/ports';

/**
 * Keeps the search index in step with documents: the `indexer` stream consumer calls it for every change that
 * affects what a search finds (text ready, title, labels or metadata edited, deleted). Every write carries the
 * record's version, so a copy older than what the index holds never replaces it.
 */
export interface SearchIndexer {
  /** Reads the document's current record, text and label names, and indexes them (removes it if it is gone). */
  reindex(documentId: string): Promise<void>;
  /**
   * Indexes a record as a change's image carries it (one read fewer than `reindex`): its text (unless the
   * caller knows it: `knownContent`, whose object is still read when the text is kept in one) and label names
   * are read as they are now. A later change of the record brings its own image, so what this writes is
   * replaced in turn.
   */
  index(record: DocumentRecord, knownContent?: DocumentContent): Promise<void>;
  remove(documentId: string): Promise<void>;
}


/** What the index holds of one document. `version` orders updates: an older one never overwrites a newer one. */
export interface IndexedDocument {
  id: string;
  version: number;
  title: string;
  filename: string;
  /** The extracted text ('' until OCR completed). */
  content: string;
  mime_type: string;
  status: string;
  /** Label ids, and their names at indexing time (searchable as text, e.g. "invoices"). */
  labels: { id: string; name: string }[];
  /** Flat metadata; values are searched as text. */
  metadata: Record<string, string | number | boolean | null>;
  ocr_confidence: number | null;
  size: number;
  created_at: string;
  updated_at: string;
}

/** The fields a query may name. `all` searches title, filename, content, labels and metadata together. */
export const SEARCH_FIELDS = ['all', 'title', 'filename', 'content', 'labels', 'metadata'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * A parsed query, the same for the search box and the advanced search:
 * - `term`: a word, matched by stem (invoices ~ invoice); `prefix` for `word*`; `fuzzy` allows typos when on.
 * - `phrase`: words in this order.
 * - `contains`: a substring of a word or number (partial match: "4711" in "INV-2024-004711").
 * - `exact`: the whole field equals the value (case-insensitive).
 * - `and` / `or` / `not`: boolean structure (`not` only inside an `and` with something positive).
 */
export type QueryNode =
  | { kind: 'term'; field: SearchField; value: string; prefix?: boolean }
  | { kind: 'phrase'; field: SearchField; value: string }
  | { kind: 'contains'; field: SearchField; value: string }
  | { kind: 'exact'; field: SearchField; value: string }
  | { kind: 'and'; children: QueryNode[] }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode };

export interface SearchFilters {
  mimeTypes?: string[] | undefined;
  /** Label ids: a document matches when it carries any of them. */
  labels?: string[] | undefined;
  /** Bounds on created_at, inclusive, ISO 8601. */
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  status?: string[] | undefined;
  minConfidence?: number | undefined;
}

export const SEARCH_SORT_FIELDS = ['relevance', 'created_at', 'updated_at', 'title', 'size'] as const;
export type SearchSortField = (typeof SEARCH_SORT_FIELDS)[number];

export interface SearchRequest {
  query: QueryNode;
  filters: SearchFilters;
  /** Typo tolerance for terms (edit distance 1 for words of 4+ letters, 2 for 8+). */
  fuzzy: boolean;
  highlight: boolean;
  sort: { field: SearchSortField; order: 'asc' | 'desc' }[];
  page: number;
  perPage: number;
}

export interface SearchHit {
  document_id: string;
  title: string;
  score: number;
  /** Snippets with matches wrapped in <mark></mark> and everything else HTML-escaped. */
  highlights: { field: string; snippet: string }[];
}

export interface SearchResults {
  results: SearchHit[];
  /** The true number of matches, even beyond what paging can reach. */
  total: number;
  /** Counts over the whole match set, not the page. */
  facets: { mime_types: Record<string, number>; labels: Record<string, number> };
}

/** At most this many results can be reached by paging (the P limit); `total` still reports the true count. */
export const MAX_REACHABLE_RESULTS = 1000;

/** What the index holds of one document, as a reconciliation compares it with the table: its id and version. */
export interface IndexEntry {
  id: string;
  version: number;
}

/** One page of a workspace's entries; `cursor` continues the listing, null after the last page. */
export interface IndexEntryPage {
  entries: IndexEntry[];
  cursor: string | null;
}

/**
 * What one workspace's part of the index holds, listed for the reconciliation with the table. Only live
 * entries: a tombstone (a removed document) is never listed. Reads may trail the last writes by the index's
 * refresh (OpenSearch: about a second), so a caller re-reads with `entriesOf` before it trusts a difference.
 */
export interface SearchIndexListing {
  /**
   * The workspace's live entries a page at a time, in an order of the index's choosing that stays stable
   * while the index changes: every entry present for the whole listing is listed exactly once. Pass the
   * previous page's cursor to continue.
   */
  entries(page: { cursor?: string | null; limit: number }): Promise<IndexEntryPage>;
  /** The live entries of these ids in the workspace, as the index holds them now; other ids are left out. */
  entriesOf(ids: string[]): Promise<IndexEntry[]>;
}

/**
 * The full-text index of every workspace's documents. Implementations: SQLite FTS5 (local) and OpenSearch
 * (cloud); both pass the same contract suite (same hits, order and highlights for the same queries). Use cases
 * never hold the store: they get `forWorkspace(principal.workspaceId)`, so no query can forget the scope.
 */
export interface SearchIndexStore {
  /** One workspace's view of the index; cheap (no I/O), so it may be taken per request. */
  forWorkspace(workspaceId: string): SearchIndex;
  /** What one workspace's part of the index holds (ids and versions), for the reconciliation with the table. */
  listingOf(workspaceId: string): SearchIndexListing;
  /** Drops everything, every workspace's entries and tombstones, for a rebuild. */
  clear(): Promise<void>;
  /** Resolves when the index answers (health). */
  ping(): Promise<void>;
}

/**
 * One workspace's view of the index. `upsert` stamps the workspace id on the entry; `search` (hits, total and
 * facets) sees only the workspace's entries; `remove` only touches an entry of this workspace. Document ids
 * are unique across workspaces, so an id held by another workspace is a caller's bug: an upsert or a removal
 * of it never changes the other workspace's entry.
 */
export interface SearchIndex {
  /**
   * Inserts or replaces the document, unless the index already holds a newer version of it. An equal version
   * replaces, so writes are idempotent (a rebuild rewrites what is there).
   */
  upsert(document: IndexedDocument): Promise<void>;
  /**
   * Removes the document, leaving a tombstone at `version + 1`: a later upsert of `version` or older does not
   * bring it back. The indexer removes with REMOVED_FOREVER (ids are never reused).
   */
  remove(documentId: string, version: number): Promise<void>;
  search(request: SearchRequest): Promise<SearchResults>;
}

export interface SearchDeps {
  searchIndex: SearchIndex;
}
