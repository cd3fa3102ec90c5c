import type { Notification } from '../../../../shared/domain/notifications/notification';
import { notifyUser } from '../../../../shared/domain/notifications/notify-user';
import { accountStores } from '../users/account-stores';

/** The notification and settings stores over a fresh table, and a way to notify a user as the workers do. */
export async function notificationWorld() {
  const stores = await accountStores();
  const workspaceId = crypto.randomUUID();
  const deps = { ...stores, workspaceId };
  /** Tells `userId` that OCR of a document ended, a minute after the last notification. */
  const notify = async (userId: string, title = 'OCR finished'): Promise<Notification> => {
    stores.clock.advanceSeconds(60);
    const notification = await notifyUser(deps, userId, { type: 'ocr_completed', title, message: 'done', data: { document_id: crypto.randomUUID() } });
    if (!notification) throw new Error('the user has notifications turned off');
    return notification;
  };
  return { stores, workspaceId, deps, notify };
}
