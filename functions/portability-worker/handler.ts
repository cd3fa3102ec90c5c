import * as z from '../../shared/zod';
import type { WorkspaceStatusReader } from '../../shared/domain/workspaces/ports';
import { exportDepsOf, importDepsOf, type ExportSources, type ImportTargets } from './deps';
import { runExport } from '../../shared/domain/portability/run-export';
import { runImport } from '../../shared/domain/portability/run-import';
import { refusePortabilityJob } from '../../shared/domain/portability/manage-portability';
import { logger } from '../../shared/observability/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

const jobMessage = z.object({ kind: z.enum(['export', 'import']), workspace_id: z.uuid(), job_id: z.uuid() });

/** What the portability worker uses: what an export reads and what an import writes. */
export type PortabilityWorkerDeps = ExportSources & ImportTargets & { workspaceStatus: WorkspaceStatusReader };

/**
 * The portability worker, fed by the portability queue: each message runs one export (writes the workspace's
 * archive) or one import (validates an uploaded archive whole, then writes it). Both end their job completed or
 * failed themselves; a message of a job that has ended does nothing, so a redelivery is harmless.
 */
export const createPortabilityWorkerHandler = (c: PortabilityWorkerDeps) =>
  sqsJsonHandler('portability', jobMessage, async (message) => {
    const status = await c.workspaceStatus.status(message.workspace_id);
    // A workspace being deleted runs nothing more (the eraser removes its jobs and archives); a suspended one
    // runs no export or import: the job ends failed, saying why.
    if (status === 'deleting' || status === null) return logger.info('portability: the workspace is gone or being deleted, job dropped', { ...message });
    if (status === 'suspended') {
      await refusePortabilityJob({ portabilityJobs: c.portability.jobs(message.workspace_id), clock: c.clock }, message.kind, message.job_id, 'workspace_suspended: the workspace is suspended; ask again once it is active');
      return logger.info('portability: the workspace is suspended, job refused', { ...message });
    }
    const started = Date.now();
    const outcome =
      message.kind === 'export'
        ? await runExport(exportDepsOf(c, message.workspace_id), message.job_id)
        : await runImport(importDepsOf(c, message.workspace_id), message.job_id);
    logger.info(`portability: ${message.kind} ${outcome}`, { ...message, ms: Date.now() - started });
  });
