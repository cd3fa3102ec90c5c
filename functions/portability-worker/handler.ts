import * as z from '../../shared/zod';
import type { AppContainer } from '../../shared/container/app-container';
import { exportDepsOf, importDepsOf, type PortabilityServices } from '../../shared/container/portability-services';
import type { WebhookServices } from '../../shared/container/webhook-services';
import { runExport } from '../../shared/domain/portability/run-export';
import { runImport } from '../../shared/domain/portability/run-import';
import { logger } from '../../shared/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

const jobMessage = z.object({ kind: z.enum(['export', 'import']), workspace_id: z.uuid(), job_id: z.uuid() });

/**
 * The portability worker, fed by the portability queue: each message runs one export (writes the workspace's
 * archive) or one import (validates an uploaded archive whole, then writes it). Both end their job completed or
 * failed themselves; a message of a job that has ended does nothing, so a redelivery is harmless.
 */
export const createPortabilityWorkerHandler = (c: AppContainer & PortabilityServices & Pick<WebhookServices, 'webhookStores'>) =>
  sqsJsonHandler('portability', jobMessage, async (message) => {
    const started = Date.now();
    const outcome =
      message.kind === 'export'
        ? await runExport(exportDepsOf(c, message.workspace_id), message.job_id)
        : await runImport(importDepsOf(c, message.workspace_id), message.job_id);
    logger.info(`portability: ${message.kind} ${outcome}`, { ...message, ms: Date.now() - started });
  });
