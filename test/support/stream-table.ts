import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { localClientOptions } from '../../shared/local/local-clients';
import { testClients, uniqueName } from './aws-resources';

/**
 * A small table of its own with a stream of old and new images (as issue 17's table has), on the engine the
 * integration global setup started, with a streams client for it. Items are `{ pk, ...attributes }`.
 */
export async function freshStreamTable() {
  const { dynamo: db } = testClients();
  const streams = new DynamoDBStreamsClient(localClientOptions(inject('awsEndpoints').dynamodb));
  const tableName = uniqueName('stream');
  const { TableDescription } = await db.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  const streamArn = TableDescription?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${tableName} was created without a stream`);
  return {
    db,
    streams,
    tableName,
    streamArn,
    put: (item: Record<string, unknown> & { pk: string }) => db.send(new PutCommand({ TableName: tableName, Item: item })),
    remove: (pk: string) => db.send(new DeleteCommand({ TableName: tableName, Key: { pk } })),
    /** Writes the items one after the other, so their records are in this order in the stream. */
    async putAll(items: (Record<string, unknown> & { pk: string })[]) {
      for (const item of items) await this.put(item);
    },
  };
}
