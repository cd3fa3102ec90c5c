import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiTokenRecord, ApiTokenRepository } from '../../../domain/tokens/ports';
import { LOST_RACE, retryLostRaces } from '../../../domain/optimistic-retry';
import { failedConditions, isConditionFailure, isTransactionConflict } from './errors';
import { keys, withoutKeys } from './keys';
import { queryAll } from './queries';

type Item = Record<string, unknown>;

const recordOf = (item: Item): ApiTokenRecord => {
  const { last_used_at: lastUsedAt, ...rest } = withoutKeys<ApiTokenRecord>(item);
  return { ...rest, last_used_at: lastUsedAt ?? null };
};

/**
 * API tokens as items keyed by their hash (`APITOKEN#<sha256>`), so that authentication is one strongly
 * consistent GetItem. Each is also in gsi1 under its workspace (`WS#<ws>#APITOKENS`, sorted by user, creation
 * and id) for the listings, which are therefore eventually consistent; a count per user (`USER#<id>`,
 * `APITOKENS`) moves in the same transaction as each create and delete and bounds how many a user holds.
 */
export class DynamoApiTokenRepository implements ApiTokenRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Two creates by one user at once meet on their count item: the transaction that loses is cancelled whole
   * (TransactionConflict) and is sent again, after a pause with jitter.
   */
  async create(token: ApiTokenRecord, limit: number): Promise<'created' | 'limit'> {
    return retryLostRaces(
      () => this.tryCreate(token, limit),
      () => {
        throw new Error('Creating the API token kept conflicting with other writes of its user');
      },
      { backoffMs: (attempt) => 20 * attempt + Math.random() * 30 },
    );
  }

  private async tryCreate(token: ApiTokenRecord, limit: number): Promise<'created' | 'limit' | typeof LOST_RACE> {
    const { last_used_at: _never, ...stored } = token;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: keys.apiTokenCount(token.user_id),
                UpdateExpression: 'ADD #count :one',
                ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
                ExpressionAttributeNames: { '#count': 'count' },
                ExpressionAttributeValues: { ':one': 1, ':limit': limit },
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  ...keys.apiToken(token.hash),
                  gsi1pk: keys.apiTokensIndex(token.workspace_id),
                  gsi1sk: `${token.user_id}#${token.created_at}#${token.id}`,
                  ...stored,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return 'created';
    } catch (error) {
      if (failedConditions(error)?.includes(0)) return 'limit';
      if (isTransactionConflict(error)) return LOST_RACE;
      throw error;
    }
  }

  async findByHash(hash: string): Promise<ApiTokenRecord | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.apiToken(hash), ConsistentRead: true }));
    return Item ? recordOf(Item) : null;
  }

  async listForUser(workspaceId: string, userId: string): Promise<ApiTokenRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :user)',
      ExpressionAttributeValues: { ':pk': keys.apiTokensIndex(workspaceId), ':user': `${userId}#` },
    });
    return items.map(recordOf);
  }

  async listForWorkspace(workspaceId: string): Promise<ApiTokenRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.apiTokensIndex(workspaceId) },
    });
    return items.map(recordOf);
  }

  async findById(workspaceId: string, id: string, userId?: string): Promise<ApiTokenRecord | null> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: userId ? 'gsi1pk = :pk AND begins_with(gsi1sk, :user)' : 'gsi1pk = :pk',
      FilterExpression: 'id = :id',
      ExpressionAttributeValues: { ':pk': keys.apiTokensIndex(workspaceId), ':id': id, ...(userId ? { ':user': `${userId}#` } : {}) },
    });
    return items[0] ? recordOf(items[0]) : null;
  }

  async delete(token: ApiTokenRecord): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: keys.apiToken(token.hash), ConditionExpression: 'attribute_exists(pk)' } },
            {
              Update: {
                TableName: this.tableName,
                Key: keys.apiTokenCount(token.user_id),
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

  async touch(hash: string, now: string, notBefore: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.apiToken(hash),
          UpdateExpression: 'SET last_used_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :notBefore)',
          ExpressionAttributeValues: { ':now': now, ':notBefore': notBefore },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
