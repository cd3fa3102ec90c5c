import type { ApiClient } from './api-client';

/** The fields of a sync status the tests read; the others are matched as they are. */
export type SyncStatus = { job_id: string; state: string; errors: Array<{ path: string; reason: string }> } & Record<string, unknown>;

/** Waits until the source's sync with this id (or its current one) has finished, and returns its status. */
export async function finishedSync(client: ApiClient, sourceId: string, jobId?: string, timeoutMs = 60_000): Promise<SyncStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await client.get(`/api/sources/${sourceId}/sync-status`);
    if (status.status === 200 && (!jobId || status.body.job_id === jobId) && ['completed', 'failed'].includes(status.body.state)) return status.body;
    if (Date.now() > deadline) throw new Error(`the sync did not finish: ${JSON.stringify(status.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
