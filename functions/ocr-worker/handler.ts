import * as z from '../../shared/zod';
import { OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { processOcrJob, type OcrWorkerServices } from '../../shared/domain/ocr/process-ocr-job';
import { MAX_DEFERRALS } from '../../shared/domain/ocr/throttling';
import type { RequestGate } from '../../shared/container/kit/request-gate';
import type { DocumentRepository } from '../../shared/domain/documents/ports';
import type { FileStore } from '../../shared/domain/files/ports';
import type { LabelRepository } from '../../shared/domain/labels/ports';
import type { BusinessMetrics } from '../../shared/domain/metrics/ports';
import type { NotificationRepository } from '../../shared/domain/notifications/ports';
import type { OcrJobQueue, OcrJobRepository } from '../../shared/domain/ocr/ports';
import type { QuotaCounts } from '../../shared/domain/quotas/ports';
import type { RuleApplyDeps, RuleRepository } from '../../shared/domain/rules/ports';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import { BOOTSTRAP_WORKSPACE_ID } from '../../shared/domain/workspaces/workspace';
import { logger } from '../../shared/observability/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

const jobMessage = z.object({
  // Messages sent before workspaces carry none: their documents were adopted into the first workspace.
  workspace_id: z._default(z.uuid(), BOOTSTRAP_WORKSPACE_ID),
  document_id: z.uuid(),
  run: z.number().check(z.int(), z.gte(1)),
  priority: z.enum(OCR_PRIORITIES),
  deferrals: z._default(z.number().check(z.int(), z.gte(0), z.lte(MAX_DEFERRALS)), 0),
});

/** The worker's dependencies: the stores of each job's workspace (named by its message), the engines and the counters. */
export type OcrWorkerHandlerDeps = Pick<RequestGate, 'clock' | 'settings' | 'plans' | 'workspaceStatus' | 'usage'> &
  Pick<RuleApplyDeps, 'regex' | 'ruleLog'> & { metrics: BusinessMetrics; notifications: NotificationRepository; quotaCounts: QuotaCounts } &
  WorkspaceScoped<{
    workspaceId: string;
    ocrJobs: OcrJobRepository;
    ocrQueue: OcrJobQueue;
    documents: DocumentRepository;
    files: FileStore;
    rules: RuleRepository;
    labels: LabelRepository;
  }> &
  OcrWorkerServices;

/**
 * The OCR worker, fed by both priority queues. Each message is one job delivery; a malformed message is
 * logged and dropped (a retry cannot fix it), a transient failure is reported so SQS redelivers it alone.
 */
export const createOcrWorkerHandler = (deps: OcrWorkerHandlerDeps) =>
  sqsJsonHandler('ocr-worker', jobMessage, async ({ workspace_id: workspaceId, document_id: documentId, run, priority, deferrals }) => {
    const started = Date.now();
    const outcome = await processOcrJob({ ...inWorkspace(deps, { workspaceId }), quotas: deps }, { documentId, run, priority, deferrals });
    logger.info('ocr-worker: job delivery done', { workspace_id: workspaceId, document_id: documentId, run, outcome, ms: Date.now() - started });
  });
