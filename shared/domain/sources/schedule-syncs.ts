import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { SourceSchedule, SyncQueue } from './ports';
import { startSync, type StartSyncDeps } from './start-sync';

/** Sources started per run of the schedule; the rest start on its next run, a minute later. */
export const SCHEDULE_BATCH = 200;

export interface ScheduleDeps {
  schedule: SourceSchedule;
  syncQueue: SyncQueue;
  clock: Clock;
  /** One workspace's sources, as a sync start needs them. */
  inWorkspace(workspaceId: string): Omit<StartSyncDeps, 'syncQueue' | 'clock'>;
  /** Whether a workspace serves now: a suspended one's syncs neither start nor resume until it is resumed. */
  serves?(workspaceId: string): Promise<boolean>;
}

export interface ScheduleOutcome {
  started: number;
  /** Syncs whose worker vanished (its lease ran out with no step queued), queued again. */
  resumed: number;
}

/**
 * One run of the schedule (every minute): starts the sync of each enabled source whose next sync is due (a
 * source already syncing is skipped: the start is conditional), and queues again each sync whose lease ran
 * out `stalledAfterSeconds` ago: its worker died and its message was lost (the local queue is in memory).
 * The lease keeps a resumed step from running twice. `takeOverLeases` (a local start: no earlier worker runs)
 * resumes every unfinished sync at once.
 */
export async function scheduleSyncs(deps: ScheduleDeps, options: { stalledAfterSeconds: number; takeOverLeases: boolean }): Promise<ScheduleOutcome> {
  const now = deps.clock.now();
  // Read before starting the due sources: taking over, the syncs this run starts would otherwise be queued twice.
  const before = options.takeOverLeases ? '9999' : new Date(now.getTime() - options.stalledAfterSeconds * 1000).toISOString();
  const stalled = await deps.schedule.stalled(before, SCHEDULE_BATCH);
  let started = 0;
  const serves = deps.serves ?? (async () => true);
  for (const { workspaceId, sourceId } of await deps.schedule.due(now.toISOString(), SCHEDULE_BATCH)) {
    if (!(await serves(workspaceId))) continue;
    try {
      await startSync({ ...deps.inWorkspace(workspaceId), syncQueue: deps.syncQueue, clock: deps.clock }, sourceId, { trigger: 'schedule', by: null });
      started++;
    } catch (error) {
      // Running already (409) or deleted meanwhile (404): nothing to start.
      if (!(error instanceof AppError)) throw error;
    }
  }
  // Taking over: every unfinished sync, whatever its lease says.
  for (const { workspaceId, sourceId, jobId } of stalled) {
    if (!(await serves(workspaceId))) continue;
    if (options.takeOverLeases) await deps.inWorkspace(workspaceId).sources.releaseJob(sourceId, jobId);
    await deps.syncQueue.enqueue({ workspace_id: workspaceId, source_id: sourceId, job_id: jobId });
  }
  return { started, resumed: stalled.length };
}
