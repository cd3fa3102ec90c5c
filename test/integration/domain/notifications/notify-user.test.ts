import { describe, expect, it } from 'vitest';
import { listNotifications } from '../../../../shared/domain/notifications/list-notifications';
import { notifyUser } from '../../../../shared/domain/notifications/notify-user';
import { updateSettings } from '../../../../shared/domain/settings/update-settings';
import { notificationWorld } from './notification-world';

const ocrDone = (documentId: string) => ({ type: 'ocr_completed' as const, title: 'OCR finished', message: 'scan.pdf is searchable', data: { document_id: documentId } });

/** Telling a user something happened, over the real notification and settings stores. */
describe('notifyUser', () => {
  it('stores an unread notification for the user, stamped with the clock', async () => {
    // Arrange
    const { stores, deps } = await notificationWorld();
    const userId = crypto.randomUUID();
    const documentId = crypto.randomUUID();

    // Act
    const notification = await notifyUser(deps, userId, ocrDone(documentId));

    // Assert
    expect(notification).toMatchObject({ ...ocrDone(documentId), read: false, created_at: stores.clock.now().toISOString() });
    expect((await listNotifications(stores, userId, false)).notifications).toEqual([notification]);
  });

  it('stores nothing for a user who turned notifications off', async () => {
    // Arrange
    const { stores, deps } = await notificationWorld();
    const userId = crypto.randomUUID();
    await updateSettings(stores, userId, { notifications_enabled: false });

    // Act
    const notification = await notifyUser(deps, userId, ocrDone(crypto.randomUUID()));

    // Assert
    expect(notification).toBeNull();
    expect((await listNotifications(stores, userId, false)).notifications).toEqual([]);
  });

  it('notifies only the user it names', async () => {
    // Arrange
    const { stores, deps } = await notificationWorld();
    const [told, other] = [crypto.randomUUID(), crypto.randomUUID()];

    // Act
    await notifyUser(deps, told, ocrDone(crypto.randomUUID()));

    // Assert
    expect((await listNotifications(stores, other, false)).notifications).toEqual([]);
  });
});
