import { workspaceServes } from '../../domain/workspaces/workspace-status';
import { DynamoWebhookDeliveryRepository } from '../../adapters/aws/dynamodb/webhook-delivery-repository';
import { DynamoWebhookRepository } from '../../adapters/aws/dynamodb/webhook-repository';
import { notifyUser } from '../../domain/notifications/notify-user';
import type { DeliverDeps } from '../../domain/webhooks/deliver-webhook';
import type { DispatchDeps } from '../../domain/webhooks/dispatch-webhook-events';
import type { ResumeDeliveriesDeps } from '../../domain/webhooks/resume-deliveries';
import type { WebhookAdminDeps } from '../../domain/webhooks/manage-deps';
import type { DeliveryQueue, WebhookDeliveryRepository, WebhookRepository, WebhookSender } from '../../domain/webhooks/ports';
import type { Clock } from '../../domain/clock';
import type { NotificationRepository } from '../../domain/notifications/ports';
import type { SettingsRepository } from '../../domain/settings/ports';
import type { CredentialVault } from '../../domain/sources/ports';
import type { UserRepository } from '../../domain/users/ports';
import type { WorkspaceRepository, WorkspaceStatusReader } from '../../domain/workspaces/ports';
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

/** What the admin's webhook operations take, for one workspace. */
export const webhookAdminDepsOf = (c: { vault: CredentialVault; clock: Clock } & WebhookServices, workspaceId: string): WebhookAdminDeps => ({
  workspaceId,
  ...c.webhookStores(workspaceId),
  deliveryQueue: c.deliveryQueue,
  vault: c.vault,
  clock: c.clock,
});

/** What the `webhooks` stream consumer takes. */
export const dispatchDepsOf = (c: WebhookServices): DispatchDeps => ({ inWorkspace: c.webhookStores, deliveryQueue: c.deliveryQueue });

/** What the delivery worker takes: the stores, the sender, the secrets' vault, and the admins to tell. */
export const deliverDepsOf = (
  c: {
    users: Pick<UserRepository, 'list'>;
    notifications: NotificationRepository;
    settings: SettingsRepository;
    clock: Clock;
    vault: CredentialVault;
    workspaceStatus: WorkspaceStatusReader;
  } & WebhookServices,
  sender: WebhookSender,
): DeliverDeps => ({
  inWorkspace: (workspaceId) => ({
    ...c.webhookStores(workspaceId),
    notifyAdmins: async (notice) => {
      const admins = (await c.users.list(workspaceId)).filter((user) => user.role === 'admin');
      const deps = { workspaceId, notifications: c.notifications, settings: c.settings, clock: c.clock };
      for (const admin of admins) await notifyUser(deps, admin.id, { type: 'webhook_disabled', ...notice });
    },
  }),
  sender,
  vault: c.vault,
  deliveryQueue: c.deliveryQueue,
  clock: c.clock,
  serves: (workspaceId) => workspaceServes(c.workspaceStatus, workspaceId),
  // A deleted workspace stays `deleting` for good: its messages would otherwise come back for ever.
  deleting: async (workspaceId) => (await c.workspaceStatus.status(workspaceId)) === 'deleting',
});

/** What resuming the pending deliveries reads: every workspace's endpoints and deliveries. */
export const resumeDepsOf = (c: { workspaces: WorkspaceRepository; clock: Clock } & WebhookServices): ResumeDeliveriesDeps => ({
  workspaces: c.workspaces,
  inWorkspace: c.webhookStores,
  deliveryQueue: c.deliveryQueue,
  clock: c.clock,
});
