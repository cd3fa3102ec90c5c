import type { IndexSources } from '../../shared/container/kit/workspace-stores';
import type { DocumentRepository } from '../../shared/domain/documents/ports';
import { erasedWorkspaces } from '../../shared/domain/erasure/erased-workspaces';
import type { ErasureRepository } from '../../shared/domain/erasure/ports';
import type { IndexerDeps } from '../../shared/domain/search/document-indexer';
import type { FollowChangesDeps } from '../../shared/domain/search/follow-changes';
import type { RebuildDeps } from '../../shared/domain/search/rebuild-search-index';
import type { ReconcileDeps } from '../../shared/domain/search/reconcile-index';
import type { WorkspaceRepository } from '../../shared/domain/workspaces/ports';

/* What the `indexer` consumer, its reconciliation and a rebuild of the index take from what indexing reads: both runtimes hand these to the same use cases. */

/** One workspace's documents, labels, files and index view, through its scope: what indexing a document reads. */
const indexedWorkspace =
  (c: IndexSources) =>
  (workspaceId: string): IndexerDeps & { documents: DocumentRepository } => {
    const scoped = c.forWorkspace(workspaceId);
    return { documents: scoped.documents, labels: scoped.labels, files: scoped.files, index: scoped.searchIndex };
  };

/** What the `indexer` stream consumer reads to keep the search index in step. */
export const indexerDepsOf = (c: IndexSources & { erasures: ErasureRepository }): FollowChangesDeps => ({
  inWorkspace: indexedWorkspace(c),
  // A workspace being erased is not followed: its erasure removes its part of the index.
  erased: erasedWorkspaces(c.erasures),
});

/** What the indexer's scheduled reconciliation reads: every workspace, the table's side and the index's listing. */
export const reconcileDepsOf = (c: IndexSources & { workspaces: WorkspaceRepository }, index: ReconcileDeps['index']): ReconcileDeps => ({
  index,
  workspaces: c.workspaces,
  inWorkspace: indexedWorkspace(c),
});

/** What rebuilding the search index reads: every workspace's documents, through its scopes. */
export const rebuildDepsOf = (c: IndexSources & { workspaces: WorkspaceRepository }, index: RebuildDeps['index']): RebuildDeps => ({
  index,
  workspaces: c.workspaces,
  inWorkspace: indexedWorkspace(c),
});
