import { describe, expect, it } from 'vitest';
import { DynamoNotificationRepository } from '../../../../../shared/adapters/aws/dynamodb/notification-repository';
import type { Notification } from '../../../../../shared/domain/notifications/notification';
import { freshTable } from '../../../../support/aws-resources';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

/** Notification number `n`, created `n` minutes after T0. */
const aNotification = (n: number): Notification => ({
  id: crypto.randomUUID(),
  type: 'ocr_completed',
  title: `note ${n}`,
  message: `message ${n}`,
  read: false,
  created_at: new Date(T0 + n * 60_000).toISOString(),
  data: { document_id: crypto.randomUUID() },
});

describe('DynamoNotificationRepository', () => {
  const setup = async (count: number) => {
    const { db, tableName } = await freshTable();
    const notifications = new DynamoNotificationRepository(db, tableName);
    const created = Array.from({ length: count }, (_, n) => aNotification(n));
    for (const notification of created) await notifications.create({ userId: 'reader', workspaceId: 'ws-1' }, notification);
    return { notifications, created };
  };

  it("lists a user's newest notifications first, at most the limit", async () => {
    // Arrange
    const { notifications } = await setup(5);

    // Act
    const listed = await notifications.list('reader', { unreadOnly: false, limit: 3 });

    // Assert
    expect(listed.map((n) => n.title)).toEqual(['note 4', 'note 3', 'note 2']);
  });

  it('fills the limit with unread ones when read ones come first, reading on past them', async () => {
    // Arrange: the four newest are read
    const { notifications, created } = await setup(7);
    for (const notification of created.slice(3)) await notifications.markRead('reader', notification.id);

    // Act
    const listed = await notifications.list('reader', { unreadOnly: true, limit: 2 });

    // Assert
    expect(listed.map((n) => n.title)).toEqual(['note 2', 'note 1']);
  });

  it('lists notifications in their P shape, without the workspace their items record', async () => {
    // Arrange
    const { notifications, created } = await setup(1);

    // Act
    const [listed] = await notifications.list('reader', { unreadOnly: false, limit: 10 });

    // Assert
    expect(listed).toEqual(created[0]);
  });

  it("lists nothing of another user's", async () => {
    // Arrange
    const { notifications } = await setup(2);

    // Act
    const listed = await notifications.list('someone-else', { unreadOnly: false, limit: 10 });

    // Assert
    expect(listed).toEqual([]);
  });
});
