import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LOST_RACE, retryLostRaces } from '../../../domain/optimistic-retry';
import { failedConditions, isTransactionConflict } from './errors';

type Key = { pk: string; sk: string };

/**
 * Puts a new item and adds one to its count item in one transaction, unless the count has reached `limit`:
 * what bounds a workspace's webhooks and rules. Two creates at once meet on the count; the one whose transaction
 * is cancelled (TransactionConflict) is sent again after a pause with jitter.
 */
export function putCounted(
  db: DynamoDBDocumentClient,
  input: { tableName: string; countKey: Key; item: Key & Record<string, unknown>; limit: number; what: string },
): Promise<'created' | 'limit'> {
  const attempt = async (): Promise<'created' | 'limit' | typeof LOST_RACE> => {
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: input.tableName,
                Key: input.countKey,
                UpdateExpression: 'ADD #count :one',
                ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
                ExpressionAttributeNames: { '#count': 'count' },
                ExpressionAttributeValues: { ':one': 1, ':limit': input.limit },
              },
            },
            { Put: { TableName: input.tableName, Item: input.item, ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        }),
      );
      return 'created';
    } catch (error) {
      if (failedConditions(error)?.includes(0)) return 'limit';
      if (isTransactionConflict(error)) return LOST_RACE;
      throw error;
    }
  };
  return retryLostRaces(
    attempt,
    () => {
      throw new Error(`Creating the ${input.what} kept conflicting with other writes of its workspace`);
    },
    { backoffMs: (n) => 20 * n + Math.random() * 30 },
  );
}

/** Deletes an item and takes one from its count item in one transaction; false when the item was gone already. */
export async function deleteCounted(db: DynamoDBDocumentClient, input: { tableName: string; key: Key; countKey: Key }): Promise<boolean> {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: input.tableName, Key: input.key, ConditionExpression: 'attribute_exists(pk)' } },
          {
            Update: {
              TableName: input.tableName,
              Key: input.countKey,
              UpdateExpression: 'ADD #count :minus',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (failedConditions(error)?.includes(0)) return false;
    throw error;
  }
}
