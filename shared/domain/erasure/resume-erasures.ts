import type { ErasureQueue, ErasureRepository } from './ports';

export interface ResumeErasuresDeps {
  erasures: Pick<ErasureRepository, 'unfinished'>;
  erasureQueue: ErasureQueue;
}

/**
 * Queues again every erasure not completed: for a queue that lost its messages with the process (the local
 * runtime's), and as a repair after an erasure's message went to the dead-letter queue. Returns how many.
 */
export async function resumeErasures(deps: ResumeErasuresDeps): Promise<number> {
  const unfinished = await deps.erasures.unfinished();
  for (const erasure of unfinished) await deps.erasureQueue.enqueue({ workspace_id: erasure.workspace_id });
  return unfinished.length;
}
