import * as z from 'zod';
import { OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { processOcrJob, type OcrWorkerDeps } from '../../shared/domain/ocr/process-ocr-job';
import { logger } from '../../shared/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

const jobMessage = z.object({
  document_id: z.uuid(),
  run: z.number().int().min(1),
  priority: z.enum(OCR_PRIORITIES),
});

/**
 * The OCR worker, fed by both priority queues. Each message is one job delivery; a malformed message is
 * logged and dropped (a retry cannot fix it), a transient failure is reported so SQS redelivers it alone.
 */
export const createOcrWorkerHandler = (deps: OcrWorkerDeps) =>
  sqsJsonHandler('ocr-worker', jobMessage, async ({ document_id: documentId, run, priority }) => {
    const started = Date.now();
    const outcome = await processOcrJob(deps, { documentId, run, priority });
    logger.info('ocr-worker: job delivery done', { documentId, run, outcome, ms: Date.now() - started });
  });
