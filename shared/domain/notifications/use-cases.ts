import type { Clock } from '../clock';
import { notFound } from '../errors';
import { getSettings, type SettingsRepository } from '../settings/settings';
import type { Notification, NotificationRepository } from './notification';

/** How many notifications a list returns: the newest ones. */
export const NOTIFICATION_LIST_LIMIT = 100;

export interface NotifyDeps {
  /** The workspace the notified user belongs to (the caller's scope). */
  workspaceId: string;
  notifications: NotificationRepository;
  settings: SettingsRepository;
  clock: Clock;
}

/**
 * Tells a user something happened: stored for the list; their open connections hear of it from the table's
 * stream. Nothing is stored (or sent) when the user turned notifications off in their settings.
 */
export async function notifyUser(
  deps: NotifyDeps,
  userId: string,
  input: Pick<Notification, 'type' | 'title' | 'message' | 'data'>,
): Promise<Notification | null> {
  const { notifications_enabled } = await getSettings(deps, userId);
  if (!notifications_enabled) return null;
  const notification: Notification = { id: crypto.randomUUID(), ...input, read: false, created_at: deps.clock.now().toISOString() };
  await deps.notifications.create({ userId, workspaceId: deps.workspaceId }, notification);
  return notification;
}

export async function listNotifications(
  deps: { notifications: NotificationRepository },
  userId: string,
  unreadOnly: boolean,
): Promise<{ notifications: Notification[] }> {
  return { notifications: await deps.notifications.list(userId, { unreadOnly, limit: NOTIFICATION_LIST_LIMIT }) };
}

/** Marks one of the caller's notifications read; another user's is 404, as if it did not exist. */
export async function markNotificationRead(deps: { notifications: NotificationRepository }, userId: string, id: string): Promise<void> {
  if (!(await deps.notifications.markRead(userId, id))) throw notFound('Notification', id);
}

export async function markAllNotificationsRead(deps: { notifications: NotificationRepository }, userId: string): Promise<{ updated: number }> {
  return { updated: await deps.notifications.markAllRead(userId) };
}
