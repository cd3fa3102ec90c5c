import { DynamoDocumentRepository } from '../../../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoLabelRepository } from '../../../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoPortabilityJobRepository } from '../../../../shared/adapters/aws/dynamodb/portability-job-repository';
import { DynamoRuleRepository } from '../../../../shared/adapters/aws/dynamodb/rule-repository';
import { DynamoSourceRepository } from '../../../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoUsageRepository } from '../../../../shared/adapters/aws/dynamodb/usage-repository';
import { DynamoUserRepository } from '../../../../shared/adapters/aws/dynamodb/user-repository';
import { DynamoWebhookRepository } from '../../../../shared/adapters/aws/dynamodb/webhook-repository';
import { DynamoWorkspaceRepository } from '../../../../shared/adapters/aws/dynamodb/workspace-repository';
import { ensureBucket, ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { S3ArchiveStore } from '../../../../shared/adapters/aws/s3/archive-store';
import { S3FileStore } from '../../../../shared/adapters/aws/s3/file-store';
import { SqsPortabilityQueue } from '../../../../shared/adapters/aws/sqs/portability-queue';
import type { Clock } from '../../../../shared/domain/clock';
import { workspaceFileStore } from '../../../../shared/domain/documents/bucket-layout';
import type { Label } from '../../../../shared/domain/labels/label';
import type { Rule } from '../../../../shared/domain/rules/rule';
import { freshTable, testClients, uniqueName } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';

/**
 * The stores export and import speak to, from their adapters on the integration engines (a fresh DynamoDB Local
 * table, an S3 emulator bucket, a portability queue of the SQS emulator), without a container. `inWorkspace()`
 * gives one workspace's, a fresh one unless named.
 */
export async function portabilityStores(clock: Clock = new ManualClock(new Date())) {
  const { db, tableName } = await freshTable();
  const { s3, sqs } = testClients();
  const bucket = uniqueName('portability');
  await ensureBucket(s3, bucket);
  const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('portability'), { visibilityTimeoutSeconds: 30 });
  const bucketFiles = new S3FileStore(s3, bucket);
  const portabilityQueue = new SqsPortabilityQueue(sqs, queueUrl);
  const workspaces = new DynamoWorkspaceRepository(db, tableName);
  const users = new DynamoUserRepository(db, tableName);
  const usage = new DynamoUsageRepository(db, tableName);

  const inWorkspace = (workspaceId: string = crypto.randomUUID()) => ({
    workspaceId,
    clock,
    portabilityJobs: new DynamoPortabilityJobRepository(db, tableName, workspaceId),
    portabilityQueue,
    archives: new S3ArchiveStore(s3, bucket, workspaceId),
    documents: new DynamoDocumentRepository(db, tableName, workspaceId, clock),
    labels: new DynamoLabelRepository(db, tableName, workspaceId),
    sources: new DynamoSourceRepository(db, tableName, workspaceId),
    rules: new DynamoRuleRepository(db, tableName, workspaceId),
    webhooks: new DynamoWebhookRepository(db, tableName, workspaceId),
    files: workspaceFileStore(bucketFiles, workspaceId),
  });

  return { db, tableName, s3, sqs, queueUrl, clock, workspaces, users, usage, inWorkspace };
}

export type PortabilityStores = ReturnType<Awaited<ReturnType<typeof portabilityStores>>['inWorkspace']>;

/** A label named `name`. */
export const aLabel = (name = 'invoices'): Label => ({
  id: crypto.randomUUID(),
  name,
  color: '#112233',
  description: null,
  document_count: 0,
  created_by: 'u',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

/** A rule adding `labels` to documents whose content holds "invoice". */
export const aRule = (labels: string[] = []): Rule => ({
  id: crypto.randomUUID(),
  name: 'invoices',
  match: { field: 'content', algorithm: 'any', pattern: 'invoice', case_sensitive: false },
  when: {},
  add_labels: labels,
  order: 1,
  created_by: 'u',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  apply: null,
});
