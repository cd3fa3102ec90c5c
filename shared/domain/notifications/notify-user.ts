import type { Clock } from '../clock';
import type { SettingsRepository } from '../settings/ports';
import { getSettings } from '../settings/get-settings';
import type { Notification } from './notification';
import type { NotificationRepository } from './ports';

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
