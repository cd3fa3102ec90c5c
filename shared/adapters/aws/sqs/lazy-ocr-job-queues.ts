import type { OcrPriority } from '../../../domain/ocr/jobs';
import type { OcrJobQueues } from '../../../domain/ocr/ports';
import { onFirstUse } from '../../first-use';
import type { ClientOptions } from '../clients';

/**
 * The OCR queues on SQS, loaded on first use (a dynamic import of the SQS client and the queue adapter). For the
 * OCR worker, which the queue's event source feeds and which sends to the queue only to hand a job back (Textract
 * throttling, a file replaced mid-run): its cold start does not evaluate the SQS client (bench/lambda-bundles.ts
 * measures what a cold start imports). A failed load is tried again on the next call.
 */
export function lazySqsOcrJobQueues(queueUrls: Record<OcrPriority, string>, clientOptions: ClientOptions = {}): OcrJobQueues {
  const queues = onFirstUse(async () => (await import('./ocr-job-queue-loader')).loadSqsOcrJobQueues(queueUrls, clientOptions));
  return {
    forWorkspace: (workspaceId) => ({
      enqueue: async (...args) => (await queues()).forWorkspace(workspaceId).enqueue(...args),
    }),
  };
}
