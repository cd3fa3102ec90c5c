import * as z from 'zod';
import { OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { OcrEngineBusy } from '../../shared/domain/ocr/ports';
import { processOcrJob, type OcrWorkerServices } from '../../shared/domain/ocr/process-ocr-job';
import { inWorkspace, type AppContainer } from '../../shared/container/app-container';
import { BOOTSTRAP_WORKSPACE_ID } from '../../shared/domain/workspaces/workspace';
import { logger } from '../../shared/logger';
import { throttledRetryDelaySeconds, type MessageRedelivery } from '../../shared/queue/redelivery';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';
import type { SQSRecord } from 'aws-lambda';

const jobMessage = z.object({
  // Messages sent before workspaces carry none: their documents were adopted into the first workspace.
  workspace_id: z.uuid().default(BOOTSTRAP_WORKSPACE_ID),
  document_id: z.uuid(),
  run: z.number().int().min(1),
  priority: z.enum(OCR_PRIORITIES),
});

/**
 * The worker's dependencies: the container (each job is run in its workspace, named by its message), the
 * engines, and in the cloud how to give a throttled message back early.
 */
export type OcrWorkerHandlerDeps = AppContainer & OcrWorkerServices & {
  /** Absent locally, where the queue poller already makes failed messages visible again within seconds. */
  redelivery?: MessageRedelivery | undefined;
  /** A number in [0, 1) for the jitter of the throttling delay. */
  random?: (() => number) | undefined;
};

/**
 * Runs `process`; when the OCR engine is throttling (it already retried briefly), the message is given back to
 * the queue after {@link throttledRetryDelaySeconds} for its receive count instead of staying invisible for the
 * queue's whole visibility timeout, and is still reported failed. If that call fails, the timeout applies.
 */
export const backOffWhenThrottled =
  <T>(deps: Pick<OcrWorkerHandlerDeps, 'redelivery' | 'random'>, process: (body: T, record: SQSRecord) => Promise<void>) =>
  async (body: T, record: SQSRecord): Promise<void> => {
    try {
      await process(body, record);
    } catch (error) {
      if (error instanceof OcrEngineBusy && deps.redelivery) {
        const seconds = throttledRetryDelaySeconds(Number(record.attributes.ApproximateReceiveCount), deps.random);
        await deps.redelivery.redeliverAfter(record, seconds).then(
          () => logger.warn('ocr-worker: OCR engine throttled, job delivered again later', { messageId: record.messageId, seconds }),
          (cause: unknown) => logger.error('ocr-worker: could not shorten the visibility of a throttled job', { messageId: record.messageId, error: cause }),
        );
      }
      throw error;
    }
  };

/**
 * The OCR worker, fed by both priority queues. Each message is one job delivery; a malformed message is
 * logged and dropped (a retry cannot fix it), a transient failure is reported so SQS redelivers it alone.
 */
export const createOcrWorkerHandler = (deps: OcrWorkerHandlerDeps) =>
  sqsJsonHandler(
    'ocr-worker',
    jobMessage,
    backOffWhenThrottled(deps, async ({ workspace_id: workspaceId, document_id: documentId, run, priority }) => {
      const started = Date.now();
      const outcome = await processOcrJob(inWorkspace(deps, { workspaceId }), { documentId, run, priority });
      logger.info('ocr-worker: job delivery done', { workspaceId, documentId, run, outcome, ms: Date.now() - started });
    }),
  );
