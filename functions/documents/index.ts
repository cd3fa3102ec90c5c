import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoPendingUploadRepository } from '../../shared/adapters/aws/dynamodb/pending-upload-repository';
import { DynamoRuleRepository } from '../../shared/adapters/aws/dynamodb/rule-repository';
import { lazyS3FileStore } from '../../shared/adapters/aws/s3/lazy-file-store';
import { sha256 } from '../../shared/adapters/crypto/sha256';
import { lambdaBusinessMetrics } from '../../shared/adapters/powertools/powertools-metrics';
import { lazyRe2RegexEngine } from '../../shared/adapters/re2/lazy-re2-regex-engine';
import { workspaceFileStore } from '../../shared/domain/documents/bucket-layout';
import { imagingServices } from '../../shared/container/kit/imaging';
import { bucketName, textractLanguages } from '../../shared/container/kit/aws-env';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { ocrQueues } from '../../shared/container/kit/aws-queues';
import { documentRepository, ruleLog } from '../../shared/container/kit/workspace-stores';
import { createDocumentsHandler } from './handler';

const { gate, table } = awsHttp();
const documents = documentRepository(table, gate.clock, gate);
// The S3 client loads with the first route that reaches the bucket: listings and reads of metadata never do.
const bucket = lazyS3FileStore(bucketName(process.env));
const queues = ocrQueues(process.env);

export const handler = lambdaEntry(
  createDocumentsHandler({
    ...gate,
    metrics: lambdaBusinessMetrics(),
    // RE2 loads with the first rule that matches a regular expression.
    regex: lazyRe2RegexEngine(),
    ruleLog,
    thumbnails: imagingServices(process.env, { prestart: false }).thumbnails,
    sha256,
    ocrLanguages: textractLanguages,
    forWorkspace: (workspaceId) => ({
      workspaceId,
      documents: documents(workspaceId),
      uploads: new DynamoPendingUploadRepository(table.db, table.name, workspaceId, gate.clock),
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      rules: new DynamoRuleRepository(table.db, table.name, workspaceId),
      files: workspaceFileStore(bucket, workspaceId),
      ocrQueue: queues.forWorkspace(workspaceId),
    }),
  }),
);
