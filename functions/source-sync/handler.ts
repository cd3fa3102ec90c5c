import * as z from '../../shared/zod';
import type { DocumentRepository } from '../../shared/domain/documents/ports';
import type { FileStore } from '../../shared/domain/files/ports';
import type { LabelRepository } from '../../shared/domain/labels/ports';
import type { BusinessMetrics } from '../../shared/domain/metrics/ports';
import type { NotificationRepository } from '../../shared/domain/notifications/ports';
import type { OcrJobQueue, OcrJobRepository } from '../../shared/domain/ocr/ports';
import type { RuleApplyDeps, RuleRepository } from '../../shared/domain/rules/ports';
import type { SettingsRepository } from '../../shared/domain/settings/ports';
import type { CredentialVault, SourceRepository, SyncQueue, SyncStateStore } from '../../shared/domain/sources/ports';
import type { RemoteFolders } from '../../shared/domain/sources/remote-folder';
import type { WorkspaceStatusReader } from '../../shared/domain/workspaces/ports';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import { runSyncStep } from '../../shared/domain/sources/run-sync-step';
import { workspaceServes } from '../../shared/domain/workspaces/workspace-status';
import { logger } from '../../shared/observability/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';
import { SOURCE_SYNC_STEP_SECONDS } from '../../shared/manifest';

const stepMessage = z.object({ workspace_id: z.uuid(), source_id: z.uuid(), job_id: z.uuid() });

/** What the source-sync worker uses. */
export type SourceSyncDeps = Pick<RuleApplyDeps, 'clock' | 'regex' | 'ruleLog'> & {
  metrics: BusinessMetrics;
  notifications: NotificationRepository;
  settings: SettingsRepository;
  remoteFolders: RemoteFolders;
  syncQueue: SyncQueue;
  vault: CredentialVault;
  workspaceStatus: WorkspaceStatusReader;
} & WorkspaceScoped<{
    workspaceId: string;
    sources: SourceRepository;
    syncState: SyncStateStore;
    documents: DocumentRepository;
    ocrJobs: OcrJobRepository;
    labels: LabelRepository;
    rules: RuleRepository;
    files: FileStore;
    ocrQueue: OcrJobQueue;
  }>;

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
