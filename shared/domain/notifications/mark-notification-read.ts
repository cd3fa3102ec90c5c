import { notFound } from '../errors';
import type { NotificationRepository } from './ports';

/** Marks one of the caller's notifications read; another user's is 404, as if it did not exist. */
export async function markNotificationRead(deps: { notifications: NotificationRepository }, userId: string, id: string): Promise<void> {
  if (!(await deps.notifications.markRead(userId, id))) throw notFound('Notification', id);
}
