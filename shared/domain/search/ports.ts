/**
 * Keeps the search index in step with documents. Called after every change that affects what a search finds
 * (text ready, title, labels or metadata edited, deleted); the adapter reads the document's current state.
 */
export interface SearchIndexer {
  reindex(documentId: string): Promise<void>;
  remove(documentId: string): Promise<void>;
}

/** The indexer of a runtime without a search index. */
export const noSearchIndex: SearchIndexer = { reindex: async () => undefined, remove: async () => undefined };
