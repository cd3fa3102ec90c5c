import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Notification, NotificationOwner } from '../../../domain/notifications/notification';
import type { NotificationRepository } from '../../../domain/notifications/ports';
import { isConditionFailure } from './errors';
import { keys } from './keys';
import { toNotification } from './notification-items';
import { queryAll } from './queries';

/**
 * Notifications under their user's partition (`USER#id / NOTIFICATION#id`), so a key built from the caller's
 * id can only ever reach the caller's own; listed newest first through gsi1 (`NOTIFICATIONS#<user>`).
 */
export class DynamoNotificationRepository implements NotificationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create({ userId, workspaceId }: NotificationOwner, notification: Notification): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.notification(userId, notification.id),
          gsi1pk: keys.notificationsIndex(userId),
          gsi1sk: `${notification.created_at}#${notification.id}`,
          ...notification,
          workspace_id: workspaceId,
        },
      }),
    );
  }

  async list(userId: string, options: { unreadOnly: boolean; limit: number }): Promise<Notification[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :user',
        ...(options.unreadOnly ? { FilterExpression: '#read = :false', ExpressionAttributeNames: { '#read': 'read' } } : {}),
        ExpressionAttributeValues: { ':user': keys.notificationsIndex(userId), ...(options.unreadOnly ? { ':false': false } : {}) },
        ScanIndexForward: false,
      },
      options.limit,
    );
    return items.map(toNotification);
  }

  async markRead(userId: string, id: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.notification(userId, id),
          UpdateExpression: 'SET #read = :true',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#read': 'read' },
          ExpressionAttributeValues: { ':true': true },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async markAllRead(userId: string): Promise<number> {
    const unread = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :user',
      FilterExpression: '#read = :false',
      ExpressionAttributeNames: { '#read': 'read' },
      ExpressionAttributeValues: { ':user': keys.notificationsIndex(userId), ':false': false },
    });
    await Promise.all(unread.map((item) => this.markRead(userId, String(item['id']))));
    return unread.length;
  }
}
