/** A P notification of one user. */
export interface Notification {
  id: string;
  type: 'ocr_completed' | 'ocr_failed' | 'source_sync_completed' | 'source_sync_failed';
  title: string;
  message: string;
  read: boolean;
  created_at: string;
  /** What it is about: a document (OCR), or a source and its sync. */
  data: { document_id: string } | { source_id: string; job_id: string };
}

/** Each user's notifications; nobody reaches another user's. */
/** Whose a notification is: the user, and the workspace the user belongs to (what its event is addressed by). */
export interface NotificationOwner {
  userId: string;
  workspaceId: string;
}

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
