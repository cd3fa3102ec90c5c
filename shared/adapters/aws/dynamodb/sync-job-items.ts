import type { SyncJob } from '../../../domain/sources/sync-job';
import { withoutKeys } from './keys';

/** A sync job item as the domain sees it: no keys, no lease (nor its count of starts), its counters numbers even where never added to. */
export const toSyncJob = (item: Record<string, unknown>): SyncJob => {
  const { lease_until: _lease, attempts: _attempts, ...job } = withoutKeys<SyncJob & { lease_until?: string | null; attempts?: number }>(item);
  const counters = ['new', 'changed', 'unchanged', 'skipped', 'duplicates', 'failed', 'processed', 'total'] as const;
  return {
    ...job,
    ...Object.fromEntries(counters.map((name) => [name, Number(item[name] ?? 0)])),
    current_file: job.current_file ?? null,
    started_at: job.started_at ?? null,
    finished_at: job.finished_at ?? null,
  };
};
