import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Limit } from '../../../domain/quotas/plans';
import type { QuotaCounter, QuotaCounts, TakeOutcome } from '../../../domain/quotas/ports';
import { isConditionFailure } from './errors';

/** One workspace's count of one quota: `WS#<ws>#QUOTAS / COUNT#<counter>`, `count`. */
export const quotaCountKey = (workspaceId: string, counter: QuotaCounter) => ({ pk: `WS#${workspaceId}#QUOTAS`, sk: `COUNT#${counter}` });

/**
 * The counts of members, sources, API tokens and OCR pages per month (see QuotaCounts). Every take and give needs the count item to
 * exist (a condition), so a count is started once from a listing before anything moves it, and never from a
 * partial one: the item is put only where none exists, and no write adds to an item that does not.
 */
export class DynamoQuotaCounts implements QuotaCounts {
  /** Counts this instance knows exist: they are never deleted but with their workspace. */
  private readonly started = new Set<string>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async take(workspaceId: string, counter: QuotaCounter, amount: number, limit: Limit, existing: () => Promise<number>): Promise<TakeOutcome> {
    const key = quotaCountKey(workspaceId, counter);
    await this.start(key, existing);
    if (limit !== 'unlimited' && amount > limit) return { taken: false, used: await this.current(key) };
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'ADD #count :amount',
          // No arithmetic in a condition: the count may be at most the limit less what is added.
          ConditionExpression: limit === 'unlimited' ? 'attribute_exists(#count)' : 'attribute_exists(#count) AND #count <= :most',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':amount': amount, ...(limit === 'unlimited' ? {} : { ':most': limit - amount }) },
        }),
      );
      return { taken: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { taken: false, used: await this.current(key) };
    }
  }

  async give(workspaceId: string, counter: QuotaCounter, amount: number, existing: () => Promise<number>): Promise<void> {
    const key = quotaCountKey(workspaceId, counter);
    await this.start(key, existing);
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'ADD #count :minus',
        ConditionExpression: 'attribute_exists(#count)',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minus': -amount },
      }),
    );
  }

  private async current(key: { pk: string; sk: string }): Promise<number> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return Number(Item?.['count'] ?? 0);
  }

  /** Puts the count from the listing where none exists yet; a concurrent start that wins is as good. */
  private async start(key: { pk: string; sk: string }, existing: () => Promise<number>): Promise<void> {
    const id = `${key.pk}/${key.sk}`;
    if (this.started.has(id)) return;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    if (!Item) {
      try {
        await this.db.send(
          new PutCommand({ TableName: this.tableName, Item: { ...key, count: await existing() }, ConditionExpression: 'attribute_not_exists(pk)' }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    this.started.add(id);
  }
}
