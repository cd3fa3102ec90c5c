import type { DocumentRecord } from '../documents/document';
import type { DocumentRepository } from '../documents/ports';
import type { DocumentContent, FileStore } from '../files/ports';
import { validationError } from '../errors';
import type { LabelRepository } from '../labels/label';
import {
  MAX_REACHABLE_RESULTS,
  type IndexedDocument,
  type QueryNode,
  type SearchField,
  type SearchFilters,
  type SearchIndex,
  type SearchIndexer,
  type SearchIndexStore,
  type SearchResults,
  type SearchSortField,
} from './ports';
import { assertSearchableQuery, parseSearchQuery } from './query-parser';
import type { WorkspaceRepository } from '../workspaces/ports';

export interface SearchDeps {
  searchIndex: SearchIndex;
}

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
 * Refuses a page that starts beyond what paging may reach (P: at most 1000 results). A 400 that names the
 * limit tells a client more than an empty page would; a page that straddles the limit is cut at it.
 */
function assertReachable(page: number, perPage: number): void {
  if ((page - 1) * perPage >= MAX_REACHABLE_RESULTS) {
    throw validationError(`Only the first ${MAX_REACHABLE_RESULTS} results can be reached by paging`, [
      { field: 'page', reason: `page ${page} of ${perPage} starts beyond result ${MAX_REACHABLE_RESULTS}: narrow the query instead` },
    ]);
  }
}

/** The page's results, cut at the reachable limit; total and facets are left as the index counted them. */
function withinReach(results: SearchResults, page: number, perPage: number): SearchResults {
  const room = MAX_REACHABLE_RESULTS - (page - 1) * perPage;
  return results.results.length > room ? { ...results, results: results.results.slice(0, room) } : results;
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

export const CLAUSE_TYPES = ['match', 'contains', 'exact'] as const;
export type ClauseType = (typeof CLAUSE_TYPES)[number];

/** One condition of the advanced search. */
export interface SearchClause {
  field: SearchField;
  value: string;
  type: ClauseType;
}

/** POST /api/search/advanced, already checked for types and bounds. */
export interface AdvancedSearchRequest {
  must: SearchClause[];
  should: SearchClause[];
  mustNot: SearchClause[];
  filters: SearchFilters;
  sort: { field: SearchSortField; order: 'asc' | 'desc' }[];
  page: number;
  perPage: number;
  highlight: boolean;
  fuzzy: boolean;
}

/** `contains` needs three characters: both indexes find substrings through their three-letter pieces. */
export const MIN_CONTAINS_LENGTH = 3;

/**
 * One clause as a query: `match` requires every word of the value (by stem), `contains` finds the value inside
 * words or numbers ("4711" in "INV-2024-004711"), `exact` compares the whole field, case-insensitively.
 */
function clauseNode(clause: SearchClause, at: string): QueryNode {
  const value = clause.value.trim();
  if (clause.type === 'contains') {
    if ([...value].length < MIN_CONTAINS_LENGTH) {
      throw validationError('A contains condition is too short', [{ field: `${at}.value`, reason: `must be at least ${MIN_CONTAINS_LENGTH} characters for contains` }]);
    }
    return { kind: 'contains', field: clause.field, value };
  }
  if (clause.type === 'exact') {
    if (clause.field === 'content') {
      throw validationError('exact does not apply to content', [{ field: `${at}.type`, reason: 'exact compares whole short fields (title, filename, labels, metadata): use match or contains on content' }]);
    }
    return { kind: 'exact', field: clause.field, value };
  }
  const words = value.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (!words.length) throw validationError('A match condition has no words', [{ field: `${at}.value`, reason: 'has no words to search for' }]);
  const terms: QueryNode[] = words.map((word) => ({ kind: 'term', field: clause.field, value: word }));
  return terms.length === 1 ? terms[0]! : { kind: 'and', children: terms };
}

/**
 * The advanced query as one tree: every `must`, at least one `should` (when there are any), no `must_not`.
 * `should` is a requirement, not only a boost: a clause that may or may not match cannot be expressed in the
 * shared QueryNode, and "any of these" is what a form with alternatives usually means.
 */
export function advancedQuery(request: Pick<AdvancedSearchRequest, 'must' | 'should' | 'mustNot'>): QueryNode {
  const must = request.must.map((clause, i) => clauseNode(clause, `query.must.${i}`));
  const should = request.should.map((clause, i) => clauseNode(clause, `query.should.${i}`));
  const mustNot = request.mustNot.map((clause, i): QueryNode => ({ kind: 'not', child: clauseNode(clause, `query.must_not.${i}`) }));
  const children = [...must, ...(should.length > 1 ? [{ kind: 'or', children: should } as QueryNode] : should), ...mustNot];
  if (must.length + should.length === 0) {
    throw validationError('The query has no positive condition', [{ field: 'query', reason: 'give at least one must or should condition' }]);
  }
  const node: QueryNode = children.length === 1 ? children[0]! : { kind: 'and', children };
  assertSearchableQuery(node);
  return node;
}

/** POST /api/search/advanced: the same result shape as the search box, sorted as asked (relevance by default). */
export async function advancedSearch(deps: SearchDeps, request: AdvancedSearchRequest): Promise<SearchResults> {
  assertReachable(request.page, request.perPage);
  const query = advancedQuery(request);
  const results = await deps.searchIndex.search({
    query,
    filters: request.filters,
    fuzzy: request.fuzzy,
    highlight: request.highlight,
    sort: request.sort.length ? request.sort : [{ field: 'relevance', order: 'desc' }],
    page: request.page,
    perPage: request.perPage,
  });
  return withinReach(results, request.page, request.perPage);
}

/**
 * The version a removal is recorded with. Document ids are never reused, so a deleted document stays deleted
 * whatever version a late update carries.
 */
export const REMOVED_FOREVER = Number.MAX_SAFE_INTEGER - 1;

export interface IndexerDeps {
  documents: Pick<DocumentRepository, 'get' | 'getContent'>;
  labels: Pick<LabelRepository, 'get'>;
  files: Pick<FileStore, 'get'>;
  index: SearchIndex;
}

const decoder = new TextDecoder();

async function extractedText(deps: IndexerDeps, id: string, known?: DocumentContent): Promise<string> {
  const content = known ?? (await deps.documents.getContent(id));
  if ('text' in content) return content.text;
  const bytes = await deps.files.get(content.text_object);
  return bytes ? decoder.decode(bytes) : '';
}

/** What the index holds of a document: its record, its text (read, unless the caller knows it) and its labels' current names. */
export async function toIndexedDocument(deps: IndexerDeps, record: DocumentRecord, knownContent?: DocumentContent): Promise<IndexedDocument> {
  const [content, labels] = await Promise.all([
    extractedText(deps, record.id, knownContent),
    Promise.all(record.labels.map(async (id) => ({ id, name: (await deps.labels.get(id))?.name ?? '' }))),
  ]);
  return {
    id: record.id,
    version: record.version ?? 1,
    title: record.title,
    filename: record.filename,
    content,
    mime_type: record.mime_type,
    status: record.status,
    labels,
    metadata: record.metadata,
    ocr_confidence: record.ocr_confidence,
    size: record.size,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/**
 * The SearchIndexer of a runtime with a search index. `reindex` reads the document as it is now (strongly
 * consistent: the record first, then its text and its labels' names) and upserts it with the record's version;
 * `index` takes the record from a change's image and reads only the text and the label names. Calls may come
 * twice or out of order: the index keeps the newest version. Every change of what the index holds of a
 * document moves its version (edits, OCR, label assigns and deletes, and label renames, which move the version
 * of each carrier), and each of those changes is followed in turn: the last one's write carries the last
 * version, and no copy read earlier can replace it. A document that no longer exists is removed. `remove`
 * leaves a tombstone that no later upsert overrides.
 */
export function createDocumentIndexer(deps: IndexerDeps): SearchIndexer {
  return {
    reindex: async (documentId) => {
      const record = await deps.documents.get(documentId);
      if (!record) {
        await deps.index.remove(documentId, REMOVED_FOREVER);
        return;
      }
      await deps.index.upsert(await toIndexedDocument(deps, record));
    },
    index: async (record, knownContent) => deps.index.upsert(await toIndexedDocument(deps, record, knownContent)),
    remove: (documentId) => deps.index.remove(documentId, REMOVED_FOREVER),
  };
}

export interface RebuildDeps {
  /** The whole index, cleared first. */
  index: Pick<SearchIndexStore, 'clear'>;
  workspaces: Pick<WorkspaceRepository, 'list'>;
  /** One workspace's documents, labels, files and index view. */
  inWorkspace(workspaceId: string): IndexerDeps & { documents: Pick<DocumentRepository, 'get' | 'getContent' | 'scan'> };
}

/**
 * Rebuilds the whole index from the document store: clears it, then upserts every document of every workspace
 * in store order, `concurrency` at a time. Safe to run while documents change: every write is ordered by
 * version, so a change made during the rebuild is never overwritten by the rebuild's older copy.
 */
export async function rebuildSearchIndex(deps: RebuildDeps, options: { concurrency?: number; onProgress?: (indexed: number) => void } = {}): Promise<number> {
  const concurrency = options.concurrency ?? 8;
  await deps.index.clear();
  let indexed = 0;
  for (const workspace of await deps.workspaces.list()) {
    const scoped = deps.inWorkspace(workspace.id);
    let batch: DocumentRecord[] = [];
    const flush = async () => {
      await Promise.all(batch.map(async (record) => scoped.index.upsert(await toIndexedDocument(scoped, record))));
      indexed += batch.length;
      batch = [];
      options.onProgress?.(indexed);
    };
    for await (const record of scoped.documents.scan()) {
      batch.push(record);
      if (batch.length >= concurrency) await flush();
    }
    if (batch.length) await flush();
  }
  return indexed;
}
