import * as z from '../zod';
import { createDynamoDocumentClient } from '../adapters/aws/clients';
import { createSqsClient } from '../adapters/aws/sqs/client';
import { SqsWebhookDeliveryQueue } from '../adapters/aws/sqs/webhook-delivery-queue';
import type { DispatchDeps } from '../domain/webhooks/dispatch-webhook-events';
import type { AppContainer } from './app-container';
import { awsAppContainer, awsCredentialVault } from './aws';
import { parseEnv, tableEnvSchema } from './config';
import { dispatchDepsOf, dynamoWebhookStores, type WebhookServices } from './webhook-services';

/*
 * The webhooks' part of the cloud composition root: the endpoints (the `webhooks` HTTP function), the stream
 * consumer that turns changes into deliveries (`webhook-dispatch`); the worker that sends them is in
 * aws-webhook-delivery.ts, so that only its bundle carries the HTTP sender.
 */

const deliveryQueueEnvSchema = z.lazy(() => z.object({ WEBHOOK_DELIVERY_QUEUE_URL: z.url() }));

/** The webhook stores and the delivery queue (TABLE_NAME, WEBHOOK_DELIVERY_QUEUE_URL). */
export function webhookServices(env: NodeJS.ProcessEnv): WebhookServices {
  const { TABLE_NAME } = parseEnv(tableEnvSchema, env);
  const queueUrl = parseEnv(deliveryQueueEnvSchema, env).WEBHOOK_DELIVERY_QUEUE_URL;
  return {
    webhookStores: dynamoWebhookStores(createDynamoDocumentClient(), TABLE_NAME),
    deliveryQueue: new SqsWebhookDeliveryQueue(createSqsClient(), queueUrl),
  };
}

/** The webhook endpoints: the app container, the credentials key (KMS) that seals signing secrets, the stores and the queue (for pings). */
export function awsWebhooksContainer(env: NodeJS.ProcessEnv = process.env): AppContainer & WebhookServices {
  return { ...awsAppContainer(env, { vault: awsCredentialVault(env) }), ...webhookServices(env) };
}

/** The `webhook-dispatch` consumer of the table's stream: the stores and the queue; no JWT key, no vault. */
export function awsWebhookDispatchDependencies(env: NodeJS.ProcessEnv = process.env): DispatchDeps {
  return dispatchDepsOf(webhookServices(env));
}
