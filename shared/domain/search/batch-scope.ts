import type { DocumentRepository } from '../documents/ports';
import type { IndexerDeps } from './document-indexer';

/** How many table reads one batch of the indexer has in flight at once. */
export const READ_CONCURRENCY = 8;

/** One workspace's documents, labels, files and index view (what `createDocumentIndexer` reads, and the label's carriers). */
export type FollowedWorkspace = IndexerDeps & { documents: Pick<DocumentRepository, 'get' | 'getContent' | 'list'> };

/** What the indexer reads of the table and the index (see FollowChangesDeps). */
export interface BatchSources {
  inWorkspace(workspaceId: string): FollowedWorkspace;
  erased?(workspaceId: string): Promise<boolean>;
}

/** One batch's view: the workspaces' sources, and whether each workspace's deletion was requested. */
export interface BatchScope {
  inWorkspace(workspaceId: string): FollowedWorkspace;
  erased(workspaceId: string): Promise<boolean>;
}

type Scoped = FollowedWorkspace;

/** A function that runs tasks with at most `max` of them in flight, the others waiting their turn in order. */
export function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot goes straight to the next task waiting, if any.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/**
 * The indexer's view of the table and the index for one batch of changes, which makes the batch's per-document
 * costs shared ones without changing what is written:
 * - a workspace's erasure is read once, at the batch's start, beside the documents' reads, and every write of
 *   that workspace waits for it: a workspace whose deletion was requested gets no write (its erasure removes
 *   its part of the index, and a removal written after that would leave a tombstone naming it);
 * - table and file reads are at most READ_CONCURRENCY at once, over the whole batch; writes are not held back
 *   by them (a batch bounds them), so the writes of documents whose reads end together reach the index
 *   together (the SQLite index commits those in one transaction);
 * - a label's name is read once per batch. A rename moves the version of each of its documents, and each of
 *   those changes is followed in a later batch, which reads the name again.
 */
export function batchScope(deps: BatchSources): BatchScope {
  const read = limiter(READ_CONCURRENCY);
  const erasures = new Map<string, Promise<boolean>>();
  const scopes = new Map<string, Scoped>();
  const erased = (workspaceId: string): Promise<boolean> => {
    let found = erasures.get(workspaceId);
    if (!found) {
      found = deps.erased ? deps.erased(workspaceId) : Promise.resolve(false);
      // Awaited by the writes and the failure handling; a failed read fails each of the workspace's writes.
      found.catch(() => undefined);
      erasures.set(workspaceId, found);
    }
    return found;
  };
  const scopeOf = (workspaceId: string): Scoped => {
    const scoped = deps.inWorkspace(workspaceId);
    const names = new Map<string, ReturnType<Scoped['labels']['get']>>();
    const unlessErased = async (write: () => Promise<void>) => {
      if (!(await erased(workspaceId))) await write();
    };
    return {
      documents: {
        get: (id) => read(() => scoped.documents.get(id)),
        getContent: (id) => read(() => scoped.documents.getContent(id)),
        list: (query) => read(() => scoped.documents.list(query)),
      },
      labels: {
        get: (id) => {
          let label = names.get(id);
          if (!label) names.set(id, (label = read(() => scoped.labels.get(id))));
          return label;
        },
      },
      files: { get: (key) => read(() => scoped.files.get(key)) },
      index: {
        upsert: (document) => unlessErased(() => scoped.index.upsert(document)),
        remove: (documentId, version) => unlessErased(() => scoped.index.remove(documentId, version)),
        search: (request) => scoped.index.search(request),
      },
    };
  };
  return {
    erased,
    inWorkspace: (workspaceId) => {
      let scoped = scopes.get(workspaceId);
      if (!scoped) scopes.set(workspaceId, (scoped = scopeOf(workspaceId)));
      return scoped;
    },
  };
}
