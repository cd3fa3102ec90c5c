import type { routes } from '../../../functions/notifications/schemas';
import type { GroupDocs } from '../operation-docs';
import { NotificationList, NotificationRead, NotificationsMarkedRead } from '../shapes/notifications';

const notificationId = '2d4f6a8c-1b3e-4d5f-9a7c-8e6b4d2f0a1c';

export const notificationsDocs: GroupDocs<typeof routes> = {
  listNotifications: {
    summary: "List the caller's notifications",
    description: [
      "The caller's own notifications, newest first, at most the 100 newest (not paginated); `unread_only=true`",
      'leaves out those already read. A user is notified when OCR of a document they uploaded completes',
      '(`ocr_completed`) or fails (`ocr_failed`), `data` naming the document, and when a sync they started, or the',
      'first sync of a source they created, ends (`source_sync_completed`, whose message gives the counts, or',
      '`source_sync_failed`), `data` naming the source and the sync. Every admin of the workspace is notified when',
      'the service turns a webhook off (`webhook_disabled`: it answered 410 Gone, or every delivery to it failed for',
      'three days), `data` naming the webhook and `reason` (`gone` or `failing`). Nothing is stored while the',
      'user\'s settings say `notifications_enabled: false`. Each is also sent as a `notification` event to the',
      'user\'s WebSocket connections.',
    ].join('\n'),
    responses: {
      200: {
        description: 'The notifications.',
        schema: NotificationList,
        example: {
          notifications: [
            {
              id: notificationId,
              type: 'ocr_completed',
              title: 'OCR completed',
              message: '"Invoice INV-2024-004711" is searchable: 2 pages, 94% confidence',
              read: false,
              created_at: '2026-11-02T09:31:12.000Z',
              data: { document_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' },
            },
            {
              id: '5b7d9f1a-3c5e-4a7b-8d9f-0a2c4e6b8d0f',
              type: 'source_sync_completed',
              title: 'Sync of Office NAS finished',
              message: '12 new, 1 changed, 295 unchanged, 1 duplicates, 2 skipped, 0 failed',
              read: true,
              created_at: '2026-11-02T09:04:40.000Z',
              data: { source_id: '3c9d2e1f-4b5a-4c6d-8e7f-9a0b1c2d3e4f', job_id: '7e6d5c4b-3a29-4f18-9e0d-c1b2a3f4e5d6' },
            },
          ],
        },
      },
    },
  },
  markNotificationRead: {
    summary: 'Mark a notification read',
    description: 'Marks one of the caller\'s notifications read; one already read stays so (the answer is the same).',
    responses: {
      200: { description: 'The notification, now read.', schema: NotificationRead, example: { id: notificationId, read: true } },
    },
    errors: [{ code: 'NOT_FOUND', when: "the notification is another user's, even of the same workspace (answered as one that does not exist)" }],
  },
  markAllNotificationsRead: {
    summary: "Mark all the caller's notifications read",
    description: 'Marks every unread notification of the caller read, and says how many there were.',
    responses: { 200: { description: 'How many were marked read.', schema: NotificationsMarkedRead, example: { updated: 3 } } },
  },
};
