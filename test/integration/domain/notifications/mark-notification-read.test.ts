import { describe, expect, it } from 'vitest';
import { listNotifications } from '../../../../shared/domain/notifications/list-notifications';
import { markNotificationRead } from '../../../../shared/domain/notifications/mark-notification-read';
import { notificationWorld } from './notification-world';

/** Marking one notification read, over the real notification store. */
describe('markNotificationRead', () => {
  it('marks the notification read and leaves the others unread', async () => {
    // Arrange
    const { stores, notify } = await notificationWorld();
    const userId = crypto.randomUUID();
    const [one, other] = [await notify(userId, 'one'), await notify(userId, 'other')];

    // Act
    await markNotificationRead(stores, userId, one.id);

    // Assert
    const { notifications } = await listNotifications(stores, userId, false);
    expect(Object.fromEntries(notifications.map((n) => [n.id, n.read]))).toEqual({ [one.id]: true, [other.id]: false });
  });

  it("answers another user's notification NOT_FOUND and leaves it unread", async () => {
    // Arrange
    const { stores, notify } = await notificationWorld();
    const owner = crypto.randomUUID();
    const theirs = await notify(owner);

    // Act
    const attempt = markNotificationRead(stores, crypto.randomUUID(), theirs.id);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Notification', id: theirs.id } });
    expect((await listNotifications(stores, owner, true)).notifications.map((n) => n.id)).toEqual([theirs.id]);
  });

  it('answers an unknown id NOT_FOUND', async () => {
    // Arrange
    const { stores } = await notificationWorld();

    // Act
    const attempt = markNotificationRead(stores, crypto.randomUUID(), crypto.randomUUID());

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
