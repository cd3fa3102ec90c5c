import * as z from 'zod';
import { OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { processOcrJob, type OcrWorkerDeps } from '../../shared/domain/ocr/process-ocr-job';
import { logger } from '../../shared/logger';
import { sqsBatchHandler } from '../../shared/queue/sqs-batch';

const jobMessage = z.object({
  document_id: z.uuid(),
  run: z.number().int().min(1),
  priority: z.enum(OCR_PRIORITIES),
});

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The OCR worker, fed by both priority queues. Each message is one job delivery; a malformed message is
 * logged and dropped (a retry cannot fix it), a transient failure is reported so SQS redelivers it alone.
 */
export const createOcrWorkerHandler = (deps: OcrWorkerDeps) =>
  sqsBatchHandler('ocr-worker', async (message) => {
    const parsed = jobMessage.safeParse(parseJson(message.body));
    if (!parsed.success) {
      logger.warn('ocr-worker: not an OCR job message, dropped', { messageId: message.messageId });
      return;
    }
    const { document_id: documentId, run, priority } = parsed.data;
    const started = Date.now();
    const outcome = await processOcrJob(deps, { documentId, run, priority });
    logger.info('ocr-worker: job delivery done', { documentId, run, outcome, ms: Date.now() - started });
  });
