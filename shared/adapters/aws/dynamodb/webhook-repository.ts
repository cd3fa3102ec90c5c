import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookChanges, WebhookRecord, WebhookRepository } from '../../../domain/webhooks/ports';
import { deleteCounted, putCounted } from './counted-items';
import { isConditionFailure } from './errors';
import { dataKeys, withoutKeys, type DataKeys } from './keys';
import { queryAll } from './queries';

/**
 * A workspace's webhook endpoints in its `WEBHOOKS` partition (`WEBHOOK#id`), with a `COUNT` item moved in the
 * same transaction as each create and delete, which bounds how many the workspace holds.
 */
export class DynamoWebhookRepository implements WebhookRepository {
  private readonly keys: DataKeys;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
  ) {
    this.keys = dataKeys(workspaceId);
  }

  /** Two creates at once meet on the count: the loser's transaction is sent again (see putCounted). */
  create(webhook: WebhookRecord, limit: number): Promise<'created' | 'limit'> {
    const item = { ...this.keys.webhook(webhook.id), ...webhook };
    return putCounted(this.db, { tableName: this.tableName, countKey: this.keys.webhookCount, item, limit, what: 'webhook' });
  }

  async get(id: string): Promise<WebhookRecord | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.webhook(id), ConsistentRead: true }));
    return Item ? withoutKeys<WebhookRecord>(Item) : null;
  }

  async list(): Promise<WebhookRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :webhook)',
      ExpressionAttributeValues: { ':pk': this.keys.webhooksPartition, ':webhook': 'WEBHOOK#' },
      ConsistentRead: true,
    });
    return items.map((item) => withoutKeys<WebhookRecord>(item)).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async update(id: string, changes: WebhookChanges): Promise<WebhookRecord | null> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return this.get(id);
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keys.webhook(id),
          UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? withoutKeys<WebhookRecord>(Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  delete(id: string): Promise<boolean> {
    return deleteCounted(this.db, { tableName: this.tableName, key: this.keys.webhook(id), countKey: this.keys.webhookCount });
  }
}
