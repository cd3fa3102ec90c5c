import type { WebhookServices } from '../../shared/container/kit/webhooks';
import type { Clock } from '../../shared/domain/clock';
import { notifyUser } from '../../shared/domain/notifications/notify-user';
import type { NotificationRepository } from '../../shared/domain/notifications/ports';
import type { SettingsRepository } from '../../shared/domain/settings/ports';
import type { CredentialVault } from '../../shared/domain/sources/ports';
import type { UserRepository } from '../../shared/domain/users/ports';
import type { DeliverDeps } from '../../shared/domain/webhooks/deliver-webhook';
import type { WebhookSender } from '../../shared/domain/webhooks/ports';
import type { WorkspaceStatusReader } from '../../shared/domain/workspaces/ports';
import { workspaceServes } from '../../shared/domain/workspaces/workspace-status';

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
