import type { Clock } from '../clock';
import { conflict, notFound } from '../errors';
import type { SourceRepository, SyncQueue, SyncStateStore } from './ports';
import { ZERO_COUNTS, type SyncJob } from './sync-job';

export interface StartSyncDeps {
  workspaceId: string;
  sources: SourceRepository;
  syncState: SyncStateStore;
  syncQueue: SyncQueue;
  clock: Clock;
}

/** A sync a day compares every file, whatever the directory ETags say (a server may keep one when a file changes in place). */
export const FULL_WALK_INTERVAL_SECONDS = 86_400;

/**
 * Starts a sync of a source: records it as the source's current one (which fails while another runs: 409) and
 * queues its first step. A sync that cannot be queued is ended as failed at once, so the source is not left
 * looking busy.
 */
export async function startSync(
  deps: StartSyncDeps,
  sourceId: string,
  request: { trigger: SyncJob['trigger']; by: string | null },
): Promise<{ message: string; job_id: string }> {
  const source = await deps.sources.get(sourceId);
  if (!source) throw notFound('Source', sourceId);
  const now = deps.clock.now();
  const fullWalk = !source.last_full_walk || now.getTime() - Date.parse(source.last_full_walk) >= FULL_WALK_INTERVAL_SECONDS * 1000;
  const job: SyncJob = {
    ...ZERO_COUNTS,
    job_id: crypto.randomUUID(),
    source_id: sourceId,
    state: 'queued',
    trigger: request.trigger,
    started_by: request.by,
    processed: 0,
    total: 0,
    current_file: null,
    errors: [],
    full_walk: fullWalk,
    queued_at: now.toISOString(),
    started_at: null,
    finished_at: null,
    failure: null,
  };
  const started = await deps.sources.startJob(job);
  if (started === 'not_found') throw notFound('Source', sourceId);
  if (started === 'busy') {
    const running = await deps.sources.get(sourceId);
    throw conflict('A sync of this source is running', { reason: 'sync_running', source_id: sourceId, job_id: running?.current_job_id ?? null });
  }
  try {
    // The walk starts at the root: the first item of the sync's work list.
    await deps.syncState.addWork(job.job_id, [{ kind: 'directory', path: '', etag: null }]);
    await deps.syncQueue.enqueue({ workspace_id: deps.workspaceId, source_id: sourceId, job_id: job.job_id });
  } catch (error) {
    const at = deps.clock.now().toISOString();
    await deps.sources.finishJob(sourceId, job.job_id, {
      state: 'failed',
      finishedAt: at,
      failure: 'the sync could not be queued',
      source: { error: source.error, last_sync: source.last_sync ?? at, next_sync: source.next_sync ?? at },
    });
    throw error;
  }
  return { message: 'Sync started', job_id: job.job_id };
}
