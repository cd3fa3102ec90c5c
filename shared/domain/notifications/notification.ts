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
export interface NotificationRepository {
  create(userId: string, notification: Notification): Promise<void>;
  /** Newest first, at most `limit`. */
  list(userId: string, options: { unreadOnly: boolean; limit: number }): Promise<Notification[]>;
  /** False when the user has no such notification. */
  markRead(userId: string, id: string): Promise<boolean>;
  /** Marks every unread notification read; returns how many changed. */
  markAllRead(userId: string): Promise<number>;
}
