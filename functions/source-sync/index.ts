import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoNotificationRepository } from '../../shared/adapters/aws/dynamodb/notification-repository';
import { DynamoRuleRepository } from '../../shared/adapters/aws/dynamodb/rule-repository';
import { DynamoSettingsRepository } from '../../shared/adapters/aws/dynamodb/settings-repository';
import { DynamoSourceRepository } from '../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoSyncStateStore } from '../../shared/adapters/aws/dynamodb/sync-state-store';
import { lazyS3FileStore } from '../../shared/adapters/aws/s3/lazy-file-store';
import { lambdaBusinessMetrics } from '../../shared/adapters/powertools/powertools-metrics';
import { lazyRe2RegexEngine } from '../../shared/adapters/re2/lazy-re2-regex-engine';
import { WebDavFolders } from '../../shared/adapters/webdav/webdav-client';
import { workspaceFileStore } from '../../shared/domain/documents/bucket-layout';
import { workspaceDirectory } from '../../shared/container/kit/accounts';
import { bucketName } from '../../shared/container/kit/aws-env';
import { awsSyncQueue, ocrQueues } from '../../shared/container/kit/aws-queues';
import { awsCredentialVault } from '../../shared/container/kit/aws-vault';
import { awsWorker } from '../../shared/container/kit/aws-worker';
import { documentRepository, ocrJobRepository, ruleLog } from '../../shared/container/kit/workspace-stores';
import { createSourceSyncHandler } from './handler';

/* The sync worker: the workspace's sources and documents, the WebDAV client, the OCR and sync queues, the vault. */
const { table, clock, env } = awsWorker();
const directory = workspaceDirectory(table, env, clock);
const documents = documentRepository(table, clock, directory);
const ocrJobs = ocrJobRepository(table, clock, directory);
// The S3 client loads with the first file step: a directory step lists and compares without it, and a scheduled
// sync of an unchanged source is nothing else.
const bucket = lazyS3FileStore(bucketName(process.env));
const queues = ocrQueues(process.env);

export const handler = lambdaEntry(
  createSourceSyncHandler({
    clock,
    metrics: lambdaBusinessMetrics(),
    regex: lazyRe2RegexEngine(),
    ruleLog,
    settings: new DynamoSettingsRepository(table.db, table.name),
    notifications: new DynamoNotificationRepository(table.db, table.name),
    workspaceStatus: directory.workspaceStatus,
    vault: awsCredentialVault(process.env),
    syncQueue: awsSyncQueue(process.env),
    remoteFolders: new WebDavFolders({ allowPrivateNetworks: env.SOURCES_ALLOW_PRIVATE_NETWORKS, requestTimeoutMs: env.SOURCE_REQUEST_TIMEOUT_SECONDS * 1000 }),
    forWorkspace: (workspaceId) => ({
      workspaceId,
      sources: new DynamoSourceRepository(table.db, table.name, workspaceId),
      syncState: new DynamoSyncStateStore(table.db, table.name, workspaceId),
      documents: documents(workspaceId),
      ocrJobs: ocrJobs(workspaceId),
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      rules: new DynamoRuleRepository(table.db, table.name, workspaceId),
      files: workspaceFileStore(bucket, workspaceId),
      ocrQueue: queues.forWorkspace(workspaceId),
    }),
  }),
);
