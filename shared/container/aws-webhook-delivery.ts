import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender';
import type { DeliverDeps } from '../domain/webhooks/deliver-webhook';
import { awsCredentialVault, tokenlessContainer } from './aws';
import { webhookServices } from './aws-webhooks';
import { commonEnvSchema, parseEnv, tableEnvSchema } from './config';
import { deliverDepsOf } from './webhook-services';

/**
 * The delivery worker's part of the cloud composition root: the stores, the queue (retries), the credentials
 * key (it opens the signing secrets), the users and notifications (it tells admins of an endpoint it turned
 * off), and the sender under WEBHOOKS_ALLOW_PRIVATE_NETWORKS.
 */
export function awsWebhookDeliveryDependencies(env: NodeJS.ProcessEnv = process.env): DeliverDeps {
  const { TABLE_NAME } = parseEnv(tableEnvSchema, env);
  const container = { ...tokenlessContainer(TABLE_NAME, env, { vault: awsCredentialVault(env) }), ...webhookServices(env) };
  const policy = { allowPrivateNetworks: parseEnv(commonEnvSchema, env).WEBHOOKS_ALLOW_PRIVATE_NETWORKS };
  return deliverDepsOf(container, new HttpWebhookSender(policy));
}
