import { DynamoWebhookDeliveryRepository } from '../../adapters/aws/dynamodb/webhook-delivery-repository';
import { DynamoWebhookRepository } from '../../adapters/aws/dynamodb/webhook-repository';
import type { DeliveryQueue, WebhookDeliveryRepository, WebhookRepository } from '../../domain/webhooks/ports';
import type { Table } from './table';

/** What the webhook endpoints, their stream consumer and their delivery worker take. */
export interface WebhookServices {
  /** One workspace's endpoints and deliveries. */
  webhookStores(workspaceId: string): { webhooks: WebhookRepository; deliveries: WebhookDeliveryRepository };
  /** The delivery queue. */
  deliveryQueue: DeliveryQueue;
}

/** The webhook stores over the application table. */
export const dynamoWebhookStores =
  (db: Table['db'], tableName: string): WebhookServices['webhookStores'] =>
  (workspaceId) => ({
    webhooks: new DynamoWebhookRepository(db, tableName, workspaceId),
    deliveries: new DynamoWebhookDeliveryRepository(db, tableName, workspaceId),
  });
