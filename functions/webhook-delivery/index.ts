import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoNotificationRepository } from '../../shared/adapters/aws/dynamodb/notification-repository';
import { HttpWebhookSender } from '../../shared/adapters/webhooks/http-webhook-sender';
import { DynamoSettingsRepository } from '../../shared/adapters/aws/dynamodb/settings-repository';
import { DynamoUserRepository } from '../../shared/adapters/aws/dynamodb/user-repository';
import { workspaceDirectory } from '../../shared/container/kit/accounts';
import { awsWebhookDeliveryQueue } from '../../shared/container/kit/aws-queues';
import { awsCredentialVault } from '../../shared/container/kit/aws-vault';
import { awsWorker } from '../../shared/container/kit/aws-worker';
import { dynamoWebhookStores } from '../../shared/container/kit/webhooks';
import { deliverDepsOf } from './deps';
import { createWebhookDeliveryHandler } from './handler';

/*
 * The delivery worker: the stores, the queue (retries), the credentials key (it opens the signing secrets), the
 * users and notifications (it tells admins of an endpoint it turned off), and the sender under
 * WEBHOOKS_ALLOW_PRIVATE_NETWORKS.
 */
const { table, clock, env } = awsWorker();

export const handler = lambdaEntry(
  createWebhookDeliveryHandler(
    deliverDepsOf(
      {
        users: new DynamoUserRepository(table.db, table.name),
        settings: new DynamoSettingsRepository(table.db, table.name),
        notifications: new DynamoNotificationRepository(table.db, table.name),
        clock,
        vault: awsCredentialVault(process.env),
        workspaceStatus: workspaceDirectory(table, env, clock).workspaceStatus,
        webhookStores: dynamoWebhookStores(table.db, table.name),
        deliveryQueue: awsWebhookDeliveryQueue(process.env),
      },
      new HttpWebhookSender({ allowPrivateNetworks: env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS }),
    ),
  ),
);
