import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';

type Item = Record<string, unknown>;

/** Every item a query matches, following DynamoDB's pages. */
export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Item | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: cursor }));
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/** The items of the keys that exist, 100 keys a request, unprocessed keys retried. */
export async function batchGetAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  itemKeys: { pk: string; sk: string }[],
  projection?: string,
): Promise<Item[]> {
  const found: Item[] = [];
  for (let start = 0; start < itemKeys.length; start += 100) {
    let pending: Item[] = itemKeys.slice(start, start + 100);
    while (pending.length) {
      const { Responses, UnprocessedKeys } = await db.send(
        new BatchGetCommand({
          RequestItems: { [tableName]: { Keys: pending, ...(projection ? { ProjectionExpression: projection } : {}) } },
        }),
      );
      found.push(...(Responses?.[tableName] ?? []));
      pending = (UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined) ?? [];
    }
  }
  return found;
}

/** Ids of the documents carrying a label, from its membership items. */
export async function labelMembers(db: DynamoDBDocumentClient, tableName: string, labelId: string): Promise<string[]> {
  const items = await queryAll(db, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :label AND begins_with(sk, :doc)',
    ExpressionAttributeValues: { ':label': keys.label(labelId).pk, ':doc': 'DOC#' },
  });
  return items.map((item) => item['document_id'] as string);
}

/** Every item of one gsi1 partition (all users, all labels, all documents), in index order. */
export const indexPartition = (db: DynamoDBDocumentClient, tableName: string, partition: string): Promise<Item[]> =>
  queryAll(db, {
    TableName: tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :partition',
    ExpressionAttributeValues: { ':partition': partition },
  });
