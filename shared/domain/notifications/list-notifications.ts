import type { Notification } from './notification';
import type { NotificationRepository } from './ports';

/** How many notifications a list returns: the newest ones. */
export const NOTIFICATION_LIST_LIMIT = 100;

export async function listNotifications(
  deps: { notifications: NotificationRepository },
  userId: string,
  unreadOnly: boolean,
): Promise<{ notifications: Notification[] }> {
  return { notifications: await deps.notifications.list(userId, { unreadOnly, limit: NOTIFICATION_LIST_LIMIT }) };
}
