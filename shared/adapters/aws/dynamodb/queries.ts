import { BatchGetCommand, BatchWriteCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

/**
 * The items a query matches, following DynamoDB's pages. With `limit`, only the first that many, each page
 * asking for no more than are still wanted, so a short listing reads no further than it needs.
 */
export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput, limit = Infinity): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Item | undefined;
  do {
    const remaining = limit - items.length;
    const page = await db.send(
      new QueryCommand({ ...input, ...(Number.isFinite(remaining) ? { Limit: remaining } : {}), ExclusiveStartKey: cursor }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor && items.length < limit);
  return items;
}

/** The items of the keys that exist, 100 keys a request, unprocessed keys retried. */
export async function batchGetAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  itemKeys: { pk: string; sk: string }[],
  projection?: string,
  consistent = false,
): Promise<Item[]> {
  const found: Item[] = [];
  for (let start = 0; start < itemKeys.length; start += 100) {
    let pending: Item[] = itemKeys.slice(start, start + 100);
    while (pending.length) {
      const { Responses, UnprocessedKeys } = await db.send(
        new BatchGetCommand({
          RequestItems: { [tableName]: { Keys: pending, ...(projection ? { ProjectionExpression: projection } : {}), ...(consistent ? { ConsistentRead: true } : {}) } },
        }),
      );
      found.push(...(Responses?.[tableName] ?? []));
      pending = (UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined) ?? [];
    }
  }
  return found;
}

/** Puts and deletes items, 25 a request, unprocessed ones sent again (after a pause that grows). */
export async function batchWriteAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  writes: Array<{ put: Item } | { delete: { pk: string; sk: string } }>,
): Promise<void> {
  for (let start = 0; start < writes.length; start += 25) {
    let pending = writes
      .slice(start, start + 25)
      .map((write) => ('put' in write ? { PutRequest: { Item: write.put } } : { DeleteRequest: { Key: write.delete } }));
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (UnprocessedItems?.[tableName] as typeof pending | undefined) ?? [];
    }
  }
}

/** Every item of one gsi1 partition (all users, all labels, all documents), in index order. */
export const indexPartition = (db: DynamoDBDocumentClient, tableName: string, partition: string): Promise<Item[]> =>
  queryAll(db, {
    TableName: tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :partition',
    ExpressionAttributeValues: { ':partition': partition },
  });
