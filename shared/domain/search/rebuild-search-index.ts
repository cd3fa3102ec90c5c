import type { DocumentRecord } from '../documents/document';
import type { DocumentRepository } from '../documents/ports';
import type { SearchIndexStore } from './ports';
import type { WorkspaceRepository } from '../workspaces/ports';
import { type IndexerDeps, toIndexedDocument } from './document-indexer';

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
