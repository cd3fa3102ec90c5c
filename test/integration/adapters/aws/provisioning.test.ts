import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { TABLE_SCHEMA } from '../../../../shared/manifest';
import { ensureBucket, ensureQueueWithDlq, ensureTable } from '../../../../shared/adapters/aws/provisioning';
import { bucketProbe } from '../../../../shared/adapters/aws/s3/bucket-probe';
import { queueProbe } from '../../../../shared/adapters/aws/sqs/queue-probe';
import { tableProbe } from '../../../../shared/adapters/aws/dynamodb/table-probe';
import { checkHealth } from '../../../../shared/domain/health/check-health';
import { testClients, uniqueName } from '../../../support/aws-resources';

describe('provisioning of the local resources', () => {
  it('creates the table with the schema of the stack, and leaves it alone the second time', async () => {
    const { dynamo } = testClients();
    const tableName = uniqueName('prov');

    await ensureTable(dynamo, tableName);
    await ensureTable(dynamo, tableName);

    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.KeySchema?.map((k) => k.AttributeName)).toEqual([TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey]);
    expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(TABLE_SCHEMA.indexes.map((i) => i.name));
  });

  it('gives the table a stream of new and old images when asked', async () => {
    const { dynamo } = testClients();
    const tableName = uniqueName('streamed');

    await ensureTable(dynamo, tableName, { stream: true });

    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(Table?.LatestStreamArn).toBeTruthy();
  });

  it('adds the stream to a table made before it, keeping its items', async () => {
    const { dynamo } = testClients();
    const tableName = uniqueName('unstreamed');
    await ensureTable(dynamo, tableName);
    const key = { [TABLE_SCHEMA.partitionKey]: 'KEEP', [TABLE_SCHEMA.sortKey]: 'ME' };
    await dynamo.send(new PutCommand({ TableName: tableName, Item: key }));

    await ensureTable(dynamo, tableName, { stream: true });

    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect((await dynamo.send(new GetCommand({ TableName: tableName, Key: key }))).Item).toEqual(key);
  });

  it('creates a bucket once', async () => {
    const { s3 } = testClients();
    const bucket = uniqueName('bucket');

    await ensureBucket(s3, bucket);
    await ensureBucket(s3, bucket);

    expect((await checkHealth([bucketProbe(s3, bucket)])).status).toBe('ok');
  });

  it('moves a message received five times without being deleted to the dead-letter queue', async () => {
    const { sqs } = testClients();
    const { queueUrl, dlqUrl } = await ensureQueueWithDlq(sqs, uniqueName('jobs'), { visibilityTimeoutSeconds: 30 });
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'poison' }));

    for (let attempt = 0; attempt < 5; attempt++) {
      const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, VisibilityTimeout: 0, WaitTimeSeconds: 1 }));
      expect(Messages?.[0]?.Body).toBe('poison');
    }
    const sixth = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }));
    const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, WaitTimeSeconds: 1 }));

    expect(sixth.Messages ?? []).toHaveLength(0);
    expect(dead.Messages?.[0]?.Body).toBe('poison');
  });
});

describe('health probes', () => {
  it('report each component that answers as ok', async () => {
    const { dynamo, sqs } = testClients();
    const tableName = uniqueName('health');
    await ensureTable(dynamo, tableName);
    const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('health'), { visibilityTimeoutSeconds: 30 });

    const report = await checkHealth([tableProbe(dynamo, tableName), queueProbe(sqs, queueUrl)]);

    expect(report).toEqual({ status: 'ok', components: { dynamodb: 'ok', sqs: 'ok' } });
  });

  it('report a missing table as unavailable and the whole as unavailable', async () => {
    const { dynamo } = testClients();

    const report = await checkHealth([tableProbe(dynamo, uniqueName('missing'))]);

    expect(report).toEqual({ status: 'unavailable', components: { dynamodb: 'unavailable' } });
  });
});
