import type { Notification, NotificationOwner } from './notification';

export interface NotificationRepository {
  /** Stores it with its owner's workspace, so the event of its insert needs no lookup of the user. */
  create(owner: NotificationOwner, notification: Notification): Promise<void>;
  /** Newest first, at most `limit`. */
  list(userId: string, options: { unreadOnly: boolean; limit: number }): Promise<Notification[]>;
  /** False when the user has no such notification. */
  markRead(userId: string, id: string): Promise<boolean>;
  /** Marks every unread notification read; returns how many changed. */
  markAllRead(userId: string): Promise<number>;
}
