import type { NotificationRepository } from './ports';

export async function markAllNotificationsRead(deps: { notifications: NotificationRepository }, userId: string): Promise<{ updated: number }> {
  return { updated: await deps.notifications.markAllRead(userId) };
}
