import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { inject } from 'vitest';
import { TABLE_SCHEMA } from '../../shared/manifest';
import { localClientOptions } from '../../shared/container/local';
import { testClients, uniqueName } from './aws-resources';

/**
 * A fresh application table (the schema of shared/manifest.ts, as ensureTable makes it) with a stream of new
 * and old images, as issue 17's table has: the real repositories write to it and the stream poller reads it.
 */
export async function freshAppStreamTable() {
  const { dynamo: db } = testClients();
  const streams = new DynamoDBStreamsClient(localClientOptions(inject('awsEndpoints').dynamodb));
  const tableName = uniqueName('streamapp');
  const { partitionKey, sortKey, indexes } = TABLE_SCHEMA;
  const attributes = [partitionKey, sortKey, ...indexes.flatMap((index) => [index.partitionKey, index.sortKey])];
  const { TableDescription } = await db.send(
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
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  const streamArn = TableDescription?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${tableName} was created without a stream`);
  return { db, streams, tableName, streamArn };
}

/** Waits until the async `condition` holds, checking every 25 ms; fails after `timeoutMs` naming what was awaited. */
export async function eventually(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
