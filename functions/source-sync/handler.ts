import * as z from '../../shared/zod';
import type { AppContainer, WorkspaceData } from '../../shared/container/app-container';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import { runSyncStep } from '../../shared/domain/sources/run-sync-step';
import { workspaceServes } from '../../shared/domain/workspaces/workspace-status';
import { logger } from '../../shared/observability/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';
import { SOURCE_SYNC_STEP_SECONDS } from '../../shared/manifest';

const stepMessage = z.object({ workspace_id: z.uuid(), source_id: z.uuid(), job_id: z.uuid() });

/** What the source-sync worker uses. */
export type SourceSyncDeps = Pick<AppContainer, 'clock' | 'metrics' | 'notifications' | 'regex' | 'remoteFolders' | 'ruleLog' | 'settings' | 'syncQueue' | 'vault' | 'workspaceStatus'> & WorkspaceScoped<Pick<WorkspaceData, 'documents' | 'files' | 'labels' | 'ocrJobs' | 'ocrQueue' | 'rules' | 'sources' | 'syncState' | 'workspaceId'>>;

/**
 * The sync worker, fed by the sync queue: each message is one step of a sync (the first, or the rest of one
 * whose worker ran out of time). A malformed message is logged and dropped; a failing step is reported, so SQS
 * delivers it again and the step resumes from the sync's saved work list.
 */
export const createSourceSyncHandler = (c: SourceSyncDeps, options: { stepSeconds?: number } = {}) =>
  sqsJsonHandler('source-sync', stepMessage, async (message) => {
    const started = Date.now();
    const outcome = await runSyncStep(
      {
        ...inWorkspace(c, { workspaceId: message.workspace_id }),
        stepSeconds: options.stepSeconds ?? SOURCE_SYNC_STEP_SECONDS,
        serves: () => workspaceServes(c.workspaceStatus, message.workspace_id),
      },
      message,
    );
    logger.info('source-sync: step done', { ...message, outcome, ms: Date.now() - started });
  });
