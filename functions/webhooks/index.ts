import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { awsWebhookDeliveryQueue } from '../../shared/container/kit/aws-queues';
import { awsCredentialVault } from '../../shared/container/kit/aws-vault';
import { dynamoWebhookStores } from '../../shared/container/kit/webhooks';
import { createWebhooksHandler } from './handler';

const { gate, table } = awsHttp();

export const handler = lambdaEntry(
  createWebhooksHandler({
    ...gate,
    // Seals the endpoints' signing secrets.
    vault: awsCredentialVault(process.env),
    webhookStores: dynamoWebhookStores(table.db, table.name),
    // A ping is a delivery.
    deliveryQueue: awsWebhookDeliveryQueue(process.env),
  }),
);
