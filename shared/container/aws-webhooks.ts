import * as z from '../zod';
import { createDynamoDocumentClient } from '../adapters/aws/clients';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { SqsWebhookDeliveryQueue } from '../adapters/aws/sqs-webhook-delivery-queue';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender';
import type { DeliverDeps } from '../domain/webhooks/deliver-webhook';
import type { DispatchDeps } from '../domain/webhooks/dispatch-webhook-events';
import type { AppContainer } from './app-container';
import { awsAppContainer, awsCredentialVault, tokenlessContainer } from './aws';
import { commonEnvSchema, parseEnv, tableEnvSchema } from './config';
import { deliverDepsOf, dispatchDepsOf, dynamoWebhookStores, type WebhookServices } from './webhook-services';

/*
 * The webhooks' part of the cloud composition root: the endpoints (the `webhooks` HTTP function), the stream
 * consumer that turns changes into deliveries (`webhook-dispatch`) and the worker that sends them
 * (`webhook-delivery`).
 */

const deliveryQueueEnvSchema = z.lazy(() => z.object({ WEBHOOK_DELIVERY_QUEUE_URL: z.url() }));

/** The webhook stores and the delivery queue (TABLE_NAME, WEBHOOK_DELIVERY_QUEUE_URL). */
function webhookServices(env: NodeJS.ProcessEnv): WebhookServices {
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

/**
 * The delivery worker: the stores, the queue (retries), the credentials key (it opens the signing secrets),
 * the users and notifications (it tells admins of an endpoint it turned off), and the sender under
 * WEBHOOKS_ALLOW_PRIVATE_NETWORKS.
 */
export function awsWebhookDeliveryDependencies(env: NodeJS.ProcessEnv = process.env): DeliverDeps {
  const { TABLE_NAME } = parseEnv(tableEnvSchema, env);
  const container = { ...tokenlessContainer(TABLE_NAME, env, { vault: awsCredentialVault(env) }), ...webhookServices(env) };
  const policy = { allowPrivateNetworks: parseEnv(commonEnvSchema, env).WEBHOOKS_ALLOW_PRIVATE_NETWORKS };
  return deliverDepsOf(container, new HttpWebhookSender(policy));
}
