/** A P notification of one user. */
export interface Notification {
  id: string;
  type: 'ocr_completed' | 'ocr_failed' | 'source_sync_completed' | 'source_sync_failed' | 'webhook_disabled';
  title: string;
  message: string;
  read: boolean;
  created_at: string;
  /** What it is about: a document (OCR), or a source and its sync. */
  data: { document_id: string } | { source_id: string; job_id: string } | { webhook_id: string; reason: 'gone' | 'failing' };
}

/** Each user's notifications; nobody reaches another user's. */
/** Whose a notification is: the user, and the workspace the user belongs to (what its event is addressed by). */
export interface NotificationOwner {
  userId: string;
  workspaceId: string;
}
