import { requeueStuckJobs, type OcrSweeperDeps } from '../../shared/domain/ocr/requeue-stuck-jobs';
import { logger } from '../../shared/observability/logger';

/** Runs on a schedule: queues again the OCR jobs nothing is working on, so no document stays pending. */
export const createOcrSweeperHandler = (deps: OcrSweeperDeps) => async (): Promise<{ requeued: number }> => {
  const requeued = await requeueStuckJobs(deps);
  if (requeued) logger.warn('ocr-sweeper: stuck OCR jobs queued again', { requeued });
  return { requeued };
};
