import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE_SCHEMA } from '../../manifest';

/**
 * Creates the stateful resources when they are missing, for the runtimes where CloudFormation does not:
 * the local emulators, LocalStack and the integration tests. Mirrors lib/stacks/stateful-stack.ts.
 */

const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const };

/**
 * `stream`: the table gets a stream of new and old images (the change stream the search index and the events
 * follow), also when it exists without one (a DATA_DIR from before the stream).
 */
export async function ensureTable(db: DynamoDBDocumentClient, tableName: string, options: { stream?: boolean } = {}): Promise<void> {
  try {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName }));
    if (options.stream && !Table?.StreamSpecification?.StreamEnabled) {
      await db.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: STREAM }));
    }
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const { partitionKey, sortKey, indexes, ttlAttribute } = TABLE_SCHEMA;
  const attributes = [partitionKey, sortKey, ...indexes.flatMap((index) => [index.partitionKey, index.sortKey])];
  await db.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      ...(options.stream ? { StreamSpecification: STREAM } : {}),
    }),
  );
  await db.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
    }),
  );
}

export async function ensureBucket(s3: S3Client, bucketName: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucketName }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: bucketName }));
  }
}

/** A work queue with its dead-letter queue (maxReceiveCount 5, as in the cloud); returns the work queue's URL. */
export async function ensureQueueWithDlq(
  sqs: SQSClient,
  queueName: string,
  options: { visibilityTimeoutSeconds: number },
): Promise<{ queueUrl: string; dlqUrl: string }> {
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${queueName}-dlq` }));
  const dlqUrl = dlq.QueueUrl!;
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }));
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: queueName,
      Attributes: {
        VisibilityTimeout: String(options.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.['QueueArn'], maxReceiveCount: 5 }),
      },
    }),
  );
  return { queueUrl: queue.QueueUrl!, dlqUrl };
}
