import { describe, expect, it } from 'vitest';
import { listNotifications, NOTIFICATION_LIST_LIMIT } from '../../../../shared/domain/notifications/list-notifications';
import { markNotificationRead } from '../../../../shared/domain/notifications/mark-notification-read';
import { notificationWorld } from './notification-world';

/** A user's notifications, listed over the real notification store. */
describe('listNotifications', () => {
  it("lists the user's notifications newest first", async () => {
    // Arrange
    const { stores, notify } = await notificationWorld();
    const userId = crypto.randomUUID();
    for (const title of ['first', 'second', 'third']) await notify(userId, title);

    // Act
    const { notifications } = await listNotifications(stores, userId, false);

    // Assert
    expect(notifications.map((n) => n.title)).toEqual(['third', 'second', 'first']);
  });

  it('lists the unread ones only when asked to', async () => {
    // Arrange
    const { stores, notify } = await notificationWorld();
    const userId = crypto.randomUUID();
    const read = await notify(userId, 'read');
    await notify(userId, 'unread');
    await markNotificationRead(stores, userId, read.id);

    // Act
    const { notifications } = await listNotifications(stores, userId, true);

    // Assert
    expect(notifications.map((n) => n.title)).toEqual(['unread']);
  });

  it(`answers the newest ${NOTIFICATION_LIST_LIMIT} at most`, async () => {
    // Arrange
    const { stores, notify } = await notificationWorld();
    const userId = crypto.randomUUID();
    for (let n = 0; n <= NOTIFICATION_LIST_LIMIT; n++) await notify(userId, `note ${n}`);

    // Act
    const { notifications } = await listNotifications(stores, userId, false);

    // Assert
    expect(notifications).toHaveLength(NOTIFICATION_LIST_LIMIT);
    expect(notifications.at(-1)?.title).toBe('note 1');
  });

  it("never lists another user's notifications", async () => {
    // Arrange
    const { stores, notify } = await notificationWorld();
    await notify(crypto.randomUUID());

    // Act
    const listed = await listNotifications(stores, crypto.randomUUID(), false);

    // Assert
    expect(listed).toEqual({ notifications: [] });
  });
});
