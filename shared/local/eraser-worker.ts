import { createDynamoDocumentClient } from '../adapters/aws/clients';
import { createS3Client } from '../adapters/aws/s3/client';
import { S3WorkspaceEraser } from '../adapters/aws/s3/workspace-eraser';
import { startQueuePoller, type QueuePoller } from './event-sources/sqs-poller';
import type { SqliteSearchIndex } from '../adapters/local/sqlite-search-index';
import type { AppContainer } from '../container/app-container';
import { eraserDepsOf } from '../container/eraser';
import { localClientOptions, type LocalResources } from '../container/local';
import { resumeErasures } from '../domain/erasure/resume-erasures';
import { createEraserHandler } from '../../functions/eraser/handler';

/**
 * The local eraser: the cloud's handler on the erasure queue, one workspace at a time, over the emulators'
 * table and bucket (unversioned: the S3 emulator implements no versioning) and the SQLite index. Its queue
 * lives in memory, so the erasures an earlier process left unfinished are queued again (`resume`).
 */
export function startLocalEraser(options: {
  container: AppContainer;
  resources: LocalResources;
  searchIndex: SqliteSearchIndex;
  sqs: Parameters<typeof startQueuePoller>[0]['sqs'];
  polling: { waitTimeSeconds: number; abortReceiveOnStop: boolean };
}): { poller: QueuePoller; resume: () => Promise<number> } {
  const { container, resources } = options;
  const deps = eraserDepsOf(container, {
    db: createDynamoDocumentClient(localClientOptions(resources.endpoints.dynamodb, resources.dynamodbCredentials)),
    tableName: resources.tableName,
    objects: new S3WorkspaceEraser(createS3Client(localClientOptions(resources.endpoints.s3)), resources.bucketName, false),
    index: { erase: async (workspaceId) => options.searchIndex.eraseWorkspace(workspaceId) },
  });
  return {
    poller: startQueuePoller({ sqs: options.sqs, queueUrl: resources.erasureQueueUrl, handler: createEraserHandler(deps), batchSize: 1, ...options.polling }),
    resume: () => resumeErasures(container),
  };
}
