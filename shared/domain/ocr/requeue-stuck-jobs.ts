import type { WorkspaceRepository } from '../workspaces/ports';
import type { Clock } from '../clock';
import type { OcrJobQueue, OcrJobRepository } from './ports';

/** What the stuck-job sweep needs, and its bounds. */
export interface OcrSweeperDeps {
  workspaces: Pick<WorkspaceRepository, 'list'>;
  forWorkspace(workspaceId: string): { ocrJobs: OcrJobRepository; ocrQueue: OcrJobQueue };
  clock: Clock;
  /** A job queued this long without being taken is sent again. */
  queuedForSeconds: number;
  /** A processing job silent this long lost its worker and is sent again. */
  silentForSeconds: number;
  /** Every processing job lost its worker (a local runtime that just started): release them all first. */
  orphaned?: boolean;
}

/**
 * Queues again, in every workspace, the jobs nothing is working on: queued too long (their message was lost) or
 * processing without a heartbeat (their worker died). Returns how many were sent again.
 */
export async function requeueStuckJobs(deps: OcrSweeperDeps): Promise<number> {
  const now = deps.clock.now();
  const before = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
  let requeued = 0;
  for (const workspace of await deps.workspaces.list()) {
    const { ocrJobs, ocrQueue } = deps.forWorkspace(workspace.id);
    const stuck = await ocrJobs.stuck(before(deps.queuedForSeconds), before(deps.silentForSeconds));
    for (const job of stuck) {
      if (deps.orphaned && job.status === 'processing') await ocrJobs.release(job.document_id, job.run, now.toISOString());
      await ocrQueue.enqueue({ documentId: job.document_id, run: job.run, priority: job.priority });
    }
    requeued += stuck.length;
  }
  return requeued;
}
