import { notFound } from '../errors';
import type { SourceRepository, SyncStateStore } from './ports';
import { releaseCounted, type CountedQuotaDeps } from '../quotas/counted-quota';

/**
 * Deletes a source, its sync history and what its syncs remembered; its documents stay in the workspace (they
 * keep `source_id`). A sync running meanwhile stops at its next file, finding its source gone.
 */
export async function deleteSource(
  deps: { workspaceId: string; sources: SourceRepository; syncState: SyncStateStore } & Pick<CountedQuotaDeps, 'quotaCounts'>,
  id: string,
): Promise<void> {
  const source = await deps.sources.get(id);
  if (!source) throw notFound('Source', id);
  const jobIds = [source.current_job_id, source.last_job_id].filter((jobId): jobId is string => jobId !== null);
  if (!(await deps.sources.delete(id))) throw notFound('Source', id);
  await releaseCounted(deps, deps.workspaceId, 'sources', async () => (await deps.sources.list()).length);
  await deps.syncState.forget(id, [...new Set(jobIds)]);
}
