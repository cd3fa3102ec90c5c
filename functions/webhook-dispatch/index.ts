import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsWebhookDeliveryQueue } from '../../shared/container/kit/aws-queues';
import { awsTable } from '../../shared/container/kit/aws-table';
import { dynamoWebhookStores } from '../../shared/container/kit/webhooks';
import { createWebhookDispatchHandler } from './handler';

/* The `webhook-dispatch` consumer of the table's stream: the webhook stores and the delivery queue. */
const table = awsTable();

export const handler = lambdaEntry(
  createWebhookDispatchHandler({ inWorkspace: dynamoWebhookStores(table.db, table.name), deliveryQueue: awsWebhookDeliveryQueue(process.env) }),
);
