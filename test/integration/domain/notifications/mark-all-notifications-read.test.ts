import { describe, expect, it } from 'vitest';
import { listNotifications } from '../../../../shared/domain/notifications/list-notifications';
import { markAllNotificationsRead } from '../../../../shared/domain/notifications/mark-all-notifications-read';
import { markNotificationRead } from '../../../../shared/domain/notifications/mark-notification-read';
import { notificationWorld } from './notification-world';

/** Marking every notification of a user read, over the real notification store. */
describe('markAllNotificationsRead', () => {
  it('marks every unread notification read and answers how many changed', async () => {
    // Arrange
    const { stores, notify } = await notificationWorld();
    const userId = crypto.randomUUID();
    const first = await notify(userId);
    await notify(userId);
    await notify(userId);
    await markNotificationRead(stores, userId, first.id);

    // Act
    const outcome = await markAllNotificationsRead(stores, userId);

    // Assert
    expect(outcome).toEqual({ updated: 2 });
    expect((await listNotifications(stores, userId, true)).notifications).toEqual([]);
  });

  it('answers 0 when nothing is unread', async () => {
    // Arrange
    const { stores } = await notificationWorld();

    // Act
    const outcome = await markAllNotificationsRead(stores, crypto.randomUUID());

    // Assert
    expect(outcome).toEqual({ updated: 0 });
  });

  it("leaves other users' notifications unread", async () => {
    // Arrange
    const { stores, notify } = await notificationWorld();
    const other = crypto.randomUUID();
    await notify(other);

    // Act
    await markAllNotificationsRead(stores, crypto.randomUUID());

    // Assert
    expect((await listNotifications(stores, other, true)).notifications).toHaveLength(1);
  });
});
