import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RevokedTokenStore } from '../../../domain/auth/ports';
import { isConditionFailure } from './errors';
import { keys, ttlOf } from './keys';

/** Revoked token ids as items that DynamoDB's TTL removes once the token could no longer be used anyway. */
export class DynamoRevokedTokenStore implements RevokedTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async revoke(jti: string, keepUntil: Date): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.revokedToken(jti), ttl: ttlOf(keepUntil) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async isRevoked(jti: string): Promise<boolean> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.revokedToken(jti), ConsistentRead: true }),
    );
    return Item !== undefined;
  }
}
