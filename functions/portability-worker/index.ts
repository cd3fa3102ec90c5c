import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoRuleRepository } from '../../shared/adapters/aws/dynamodb/rule-repository';
import { DynamoSourceRepository } from '../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoUsageRepository } from '../../shared/adapters/aws/dynamodb/usage-repository';
import { DynamoUserRepository } from '../../shared/adapters/aws/dynamodb/user-repository';
import { createS3Client } from '../../shared/adapters/aws/s3/client';
import { S3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { workspaceFileStore } from '../../shared/domain/documents/bucket-layout';
import { workspaceDirectory } from '../../shared/container/kit/accounts';
import { auditLog } from '../../shared/container/kit/audit';
import { auditTableName, bucketName } from '../../shared/container/kit/aws-env';
import { awsPortabilityQueue } from '../../shared/container/kit/aws-queues';
import { awsCredentialVault } from '../../shared/container/kit/aws-vault';
import { awsWorker } from '../../shared/container/kit/aws-worker';
import { documentRepository } from '../../shared/container/kit/workspace-stores';
import { dynamoPortabilityServices } from '../../shared/container/kit/portability';
import { dynamoWebhookStores } from '../../shared/container/kit/webhooks';
import { createPortabilityWorkerHandler } from './handler';

/*
 * The portability worker: the workspace's stores and files, its webhooks, members, usage and audit log (read for
 * an archive) and the vault (sources' passwords sealed again on import).
 */
const { table, clock, env } = awsWorker();
const directory = workspaceDirectory(table, env, clock);
const documents = documentRepository(table, clock, directory);
const s3 = createS3Client();
const bucket = bucketName(process.env);
const files = new S3FileStore(s3, bucket);

export const handler = lambdaEntry(
  createPortabilityWorkerHandler({
    clock,
    workspaces: directory.workspaces,
    workspaceStatus: directory.workspaceStatus,
    users: new DynamoUserRepository(table.db, table.name),
    usage: new DynamoUsageRepository(table.db, table.name),
    audit: auditLog(table.db, auditTableName(process.env)),
    vault: awsCredentialVault(process.env),
    webhookStores: dynamoWebhookStores(table.db, table.name),
    portability: dynamoPortabilityServices(table.db, table.name, s3, bucket, awsPortabilityQueue(process.env)),
    forWorkspace: (workspaceId) => ({
      workspaceId,
      documents: documents(workspaceId),
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      sources: new DynamoSourceRepository(table.db, table.name, workspaceId),
      rules: new DynamoRuleRepository(table.db, table.name, workspaceId),
      files: workspaceFileStore(files, workspaceId),
    }),
  }),
);
