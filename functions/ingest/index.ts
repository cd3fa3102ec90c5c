import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoPendingUploadRepository } from '../../shared/adapters/aws/dynamodb/pending-upload-repository';
import { DynamoRuleRepository } from '../../shared/adapters/aws/dynamodb/rule-repository';
import { s3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { lambdaBusinessMetrics } from '../../shared/adapters/powertools/powertools-metrics';
import { lazyRe2RegexEngine } from '../../shared/adapters/re2/lazy-re2-regex-engine';
import { workspaceFileStore } from '../../shared/domain/documents/bucket-layout';
import { workspaceDirectory } from '../../shared/container/kit/accounts';
import { bucketName } from '../../shared/container/kit/aws-env';
import { ocrQueues } from '../../shared/container/kit/aws-queues';
import { awsWorker } from '../../shared/container/kit/aws-worker';
import { documentRepository, ruleLog } from '../../shared/container/kit/workspace-stores';
import { createIngestHandler } from './handler';

/* The ingest of presigned uploads: the staged object in the bucket becomes a document, queued for OCR. */
const { table, clock, env } = awsWorker();
const documents = documentRepository(table, clock, workspaceDirectory(table, env, clock));
const bucket = s3FileStore(bucketName(process.env));
const queues = ocrQueues(process.env);

export const handler = lambdaEntry(
  createIngestHandler({
    clock,
    metrics: lambdaBusinessMetrics(),
    regex: lazyRe2RegexEngine(),
    ruleLog,
    forWorkspace: (workspaceId) => ({
      workspaceId,
      documents: documents(workspaceId),
      uploads: new DynamoPendingUploadRepository(table.db, table.name, workspaceId, clock),
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      rules: new DynamoRuleRepository(table.db, table.name, workspaceId),
      files: workspaceFileStore(bucket, workspaceId),
      ocrQueue: queues.forWorkspace(workspaceId),
    }),
  }),
);
