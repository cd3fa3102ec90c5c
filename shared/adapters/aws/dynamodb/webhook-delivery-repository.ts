import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  DELIVERY_RETENTION_DAYS,
  type AttemptOutcome,
  type WebhookDelivery,
  type WebhookDeliveryRepository,
} from '../../../domain/webhooks/ports';
import { isConditionFailure } from './errors';
import { dataKeys, ttlOf, withoutKeys, type DataKeys } from './keys';
import { queryAll } from './queries';

const DAY_MS = 86_400_000;

const toDelivery = (item: Record<string, unknown>): WebhookDelivery => {
  const { lease_until: _lease, ...delivery } = withoutKeys<WebhookDelivery & { lease_until?: string }>(item);
  return delivery;
};

/**
 * Deliveries as items of their own (`WHDELIVERY#id`), found by id from the queue's messages, and listed per
 * endpoint through gsi1 (`WEBHOOK#<id>#DELIVERIES`, by creation time). Each expires (TTL) 30 days after it was
 * created. An attempt in progress holds a lease (`lease_until`), taken by a conditional update.
 */
export class DynamoWebhookDeliveryRepository implements WebhookDeliveryRepository {
  private readonly keys: DataKeys;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
  ) {
    this.keys = dataKeys(workspaceId);
  }

  async createIfAbsent(delivery: WebhookDelivery): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...this.keys.webhookDelivery(delivery.id),
            gsi1pk: this.keys.webhookDeliveriesIndex(delivery.webhook_id),
            gsi1sk: `${delivery.created_at}#${delivery.id}`,
            ttl: ttlOf(new Date(Date.parse(delivery.created_at) + DELIVERY_RETENTION_DAYS * DAY_MS)),
            ...delivery,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async get(id: string): Promise<WebhookDelivery | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.webhookDelivery(id), ConsistentRead: true }));
    return Item ? toDelivery(Item) : null;
  }

  async claim(id: string, attempts: number, now: string, leaseUntil: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keys.webhookDelivery(id),
          UpdateExpression: 'SET attempts = :next, lease_until = :lease',
          // A recorded attempt lets its lease go, so a lease left behind is an attempt whose worker died.
          ConditionExpression:
            '#state = :pending AND ((attempts = :attempts AND (attribute_not_exists(lease_until) OR lease_until < :now)) OR (attempts = :next AND lease_until < :now))',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':next': attempts + 1, ':lease': leaseUntil, ':pending': 'pending', ':attempts': attempts, ':now': now },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async record(id: string, outcome: AttemptOutcome): Promise<void> {
    const entries = Object.entries(outcome);
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.keys.webhookDelivery(id),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')} REMOVE lease_until`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
      }),
    ).catch((error: unknown) => {
      // A delivery that expired meanwhile has nothing left to record.
      if (!isConditionFailure(error)) throw error;
    });
  }

  async pendingSince(webhookId: string, since: string): Promise<WebhookDelivery[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :since',
      FilterExpression: '#state = :pending',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':pk': this.keys.webhookDeliveriesIndex(webhookId), ':since': since, ':pending': 'pending' },
    });
    return items.map(toDelivery);
  }

  async list(webhookId: string, page: { page: number; perPage: number }): Promise<{ items: WebhookDelivery[]; total: number }> {
    const partition = { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': this.keys.webhookDeliveriesIndex(webhookId) } };
    const [counted, items] = await Promise.all([
      this.count(partition),
      queryAll(this.db, { TableName: this.tableName, ...partition, ScanIndexForward: false }, page.page * page.perPage),
    ]);
    return { items: items.slice((page.page - 1) * page.perPage, page.page * page.perPage).map(toDelivery), total: counted };
  }

  private async count(partition: { IndexName: string; KeyConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> }): Promise<number> {
    let total = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const { Count = 0, LastEvaluatedKey } = await this.db.send(
        new QueryCommand({ TableName: this.tableName, ...partition, Select: 'COUNT', ...(start ? { ExclusiveStartKey: start } : {}) }),
      );
      total += Count;
      start = LastEvaluatedKey;
    } while (start);
    return total;
  }
}
