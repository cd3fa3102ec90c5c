import { notFound } from '../errors';
import type { SourceRepository } from './ports';
import { toSyncStatusView, type SyncStatusView } from './sync-job';

/** The running sync of a source, else its last one; 404 for a source that never synced. */
export async function syncStatus(deps: { sources: SourceRepository }, sourceId: string): Promise<SyncStatusView> {
  const source = await deps.sources.get(sourceId);
  if (!source) throw notFound('Source', sourceId);
  const jobId = source.current_job_id ?? source.last_job_id;
  const job = jobId ? await deps.sources.getJob(sourceId, jobId) : null;
  if (!job) throw notFound('Sync', sourceId);
  return toSyncStatusView(job);
}
