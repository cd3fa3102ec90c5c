import type { DocumentRepository } from '../../domain/documents/ports';
import type { PublishChangesDeps } from '../../domain/events/publish-changes';
import type { FollowChangesDeps } from '../../domain/search/follow-changes';
import type { ReconcileDeps } from '../../domain/search/reconcile-index';
import type { RebuildDeps } from '../../domain/search/rebuild-search-index';
import type { IndexerDeps } from '../../domain/search/document-indexer';
import type { ChangeLedger } from '../../domain/changes/ports';
import type { ConnectionSender } from '../../domain/connections/ports';
import type { ErasureRepository } from '../../domain/erasure/ports';
import type { EventHub } from '../../domain/events/ports';
import type { FileStore } from '../../domain/files/ports';
import type { LabelRepository } from '../../domain/labels/ports';
import type { OcrJobRepository } from '../../domain/ocr/ports';
import type { SearchIndex } from '../../domain/search/ports';
import type { UserRepository } from '../../domain/users/ports';
import type { WorkspaceRepository } from '../../domain/workspaces/ports';
import type { WorkspaceScoped } from './workspace-scope';
import { erasedWorkspaces } from '../../domain/erasure/erased-workspaces';

/*
 * What the table's stream consumers (`indexer`, `events`), the index's reconciliation and its rebuild take from
 * their sources: both runtimes' roots hand these to the same use cases.
 */

/** What indexing reads: each workspace's documents, labels, files and view of the index. */
export type IndexSources = WorkspaceScoped<{ documents: DocumentRepository; labels: LabelRepository; files: FileStore; searchIndex: SearchIndex }>;

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

/** What the `events` stream consumer needs to push the events a change calls for. */
export const eventsDepsOf = (
  c: { eventHub: EventHub; connectionSender: ConnectionSender; users: Pick<UserRepository, 'findById'>; changeLedger: ChangeLedger } & WorkspaceScoped<{ ocrJobs: OcrJobRepository }>,
): PublishChangesDeps => ({
  hub: c.eventHub,
  connectionSender: c.connectionSender,
  workspaceOfUser: async (userId) => (await c.users.findById(userId))?.workspace_id ?? null,
  completedOn: async (workspaceId, date) => (await c.forWorkspace(workspaceId).ocrJobs.daily(date, date))[0]?.completed ?? 0,
  ledger: c.changeLedger,
});

/** What rebuilding the search index reads: every workspace's documents, through its scopes. */
export const rebuildDepsOf = (c: IndexSources & { workspaces: WorkspaceRepository }, index: RebuildDeps['index']): RebuildDeps => ({
  index,
  workspaces: c.workspaces,
  inWorkspace: indexedWorkspace(c),
});
