import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RateLimitStore } from '../../../domain/limits/ports';
import { keys, ttlOf } from './keys';

/** Rate-limit buckets as one small item each (`tat`), written with one conditional update and removed by TTL. */
export class DynamoRateLimitStore implements RateLimitStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async compareAndSet(bucket: string, expected: number | null, next: number, expiresAt: Date): Promise<'ok' | { current: number | null }> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.rateLimit(bucket),
          UpdateExpression: 'SET tat = :next, #ttl = :ttl',
          ConditionExpression: expected === null ? 'attribute_not_exists(tat)' : 'tat = :expected',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':next': next, ':ttl': ttlOf(expiresAt), ...(expected === null ? {} : { ':expected': expected }) },
          // The item that failed the condition comes back with the error: no second request to read it.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 'ok';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // The document client leaves the error's item in DynamoDB's attribute-value form.
      const tat = error.Item?.['tat']?.N;
      return { current: tat === undefined ? null : Number(tat) };
    }
  }

  /** Stores `tat` unless the bucket already holds a later one (writes may land out of order). */
  async raise(bucket: string, tat: number, expiresAt: Date): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.rateLimit(bucket),
          UpdateExpression: 'SET tat = :tat, #ttl = :ttl',
          ConditionExpression: 'attribute_not_exists(tat) OR tat < :tat',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':tat': tat, ':ttl': ttlOf(expiresAt) },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async tatOf(bucket: string): Promise<number | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.rateLimit(bucket), ConsistentRead: true }));
    return typeof Item?.['tat'] === 'number' ? Item['tat'] : null;
  }
}
