import type { Clock } from '../../shared/domain/clock';
import type { SourceRepository, SourceSchedule, SyncQueue, SyncStateStore } from '../../shared/domain/sources/ports';
import type { WorkspaceStatusReader } from '../../shared/domain/workspaces/ports';
import type { WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import { scheduleSyncs } from '../../shared/domain/sources/schedule-syncs';
import { workspaceServes } from '../../shared/domain/workspaces/workspace-status';
import { SOURCE_SYNC_TIMEOUT_SECONDS } from '../../shared/manifest';
import { logger } from '../../shared/observability/logger';

/** What the source-scheduler worker uses. */
export type SourceSchedulerDeps = { clock: Clock; sourceSchedule: SourceSchedule; syncQueue: SyncQueue; workspaceStatus: WorkspaceStatusReader } &
  WorkspaceScoped<{ workspaceId: string; sources: SourceRepository; syncState: SyncStateStore }>;

/**
 * Runs every minute: starts the syncs that are due and queues again those whose worker vanished. By default a
 * sync counts as stalled a worker's timeout after its lease ran out (the lease already spans one). The local
 * runtime's first run takes over every lease: no worker of an earlier process is still running.
 */
export const createSourceSchedulerHandler =
  (c: SourceSchedulerDeps, options: { stalledAfterSeconds?: number; takeOverLeases?: boolean } = {}) =>
  async (): Promise<{ started: number; resumed: number }> => {
    const outcome = await scheduleSyncs(
      {
        schedule: c.sourceSchedule,
        syncQueue: c.syncQueue,
        clock: c.clock,
        serves: (workspaceId) => workspaceServes(c.workspaceStatus, workspaceId),
        inWorkspace: (workspaceId) => {
          const scoped = c.forWorkspace(workspaceId);
          return { workspaceId, sources: scoped.sources, syncState: scoped.syncState };
        },
      },
      { stalledAfterSeconds: options.stalledAfterSeconds ?? SOURCE_SYNC_TIMEOUT_SECONDS, takeOverLeases: options.takeOverLeases ?? false },
    );
    if (outcome.started || outcome.resumed) logger.info('source-scheduler: syncs queued', { ...outcome });
    return outcome;
  };
