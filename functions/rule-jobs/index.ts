import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoRuleDocuments } from '../../shared/adapters/aws/dynamodb/rule-documents';
import { DynamoRuleRepository } from '../../shared/adapters/aws/dynamodb/rule-repository';
import { lazyS3FileStore } from '../../shared/adapters/aws/s3/lazy-file-store';
import { lazyRe2RegexEngine } from '../../shared/adapters/re2/lazy-re2-regex-engine';
import { workspaceFileStore } from '../../shared/domain/documents/bucket-layout';
import { bucketName } from '../../shared/container/kit/aws-env';
import { awsRuleJobQueue } from '../../shared/container/kit/aws-queues';
import { awsWorker } from '../../shared/container/kit/aws-worker';
import { createRuleJobsHandler } from './handler';

/* The rule-jobs worker: the workspace's rules, labels and documents, and the queue of the runs' next steps. */
const { table, clock } = awsWorker();
// The S3 client loads with the first text too large for the table; most documents' texts are in their item.
const bucket = lazyS3FileStore(bucketName(process.env));

export const handler = lambdaEntry(
  createRuleJobsHandler({
    clock,
    regex: lazyRe2RegexEngine(),
    ruleJobs: awsRuleJobQueue(process.env),
    forWorkspace: (workspaceId) => ({
      workspaceId,
      rules: new DynamoRuleRepository(table.db, table.name, workspaceId),
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      ruleDocuments: new DynamoRuleDocuments(table.db, table.name, workspaceId, workspaceFileStore(bucket, workspaceId)),
    }),
  }),
);
