import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { inject } from 'vitest';
import { ensureTable } from '../../shared/adapters/aws/provisioning';
import { localClientOptions } from '../../shared/local/local-clients';
import { testClients, uniqueName } from './aws-resources';

/**
 * A fresh application table (ensureTable's: the schema of shared/manifest.ts) with a stream of new
 * and old images, as issue 17's table has: the real repositories write to it and the stream poller reads it.
 */
export async function freshAppStreamTable() {
  const { dynamo: db } = testClients();
  const streams = new DynamoDBStreamsClient(localClientOptions(inject('awsEndpoints').dynamodb));
  const tableName = uniqueName('streamapp');
  await ensureTable(db, tableName, { stream: true });
  const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${tableName} was created without a stream`);
  return { db, streams, tableName, streamArn };
}
