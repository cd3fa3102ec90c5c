import * as z from '../../../shared/zod';
import type { Notification as NotificationRecord } from '../../../shared/domain/notifications/notification';
import { NOTIFICATION_LIST_LIMIT } from '../../../shared/domain/notifications/list-notifications';
import { id, shape, timestamp } from './registry';

/** Every type a notification has: a compile error here when the domain adds or drops one. */
const NOTIFICATION_TYPES = {
  ocr_completed: 'ocr_completed',
  ocr_failed: 'ocr_failed',
  source_sync_completed: 'source_sync_completed',
  source_sync_failed: 'source_sync_failed',
  webhook_disabled: 'webhook_disabled',
} as const satisfies { [T in NotificationRecord['type']]: T };

/** Something that happened that concerns one user. */
export const Notification = shape(
  'Notification',
  "Something that happened that concerns the caller: an OCR run of their document ended, a sync they started did, or (for admins) the service turned a webhook off.",
  z.strictObject({
    id: id(),
    type: z.enum(NOTIFICATION_TYPES),
    title: z.string(),
    message: z.string(),
    read: z.boolean(),
    created_at: timestamp(),
    // What it is about: the document for `ocr_*`, the source and its sync for `source_sync_*`, the webhook and why for `webhook_disabled`.
    data: z.union([
      z.strictObject({ document_id: id() }),
      z.strictObject({ source_id: id(), job_id: id() }),
      z.strictObject({ webhook_id: id(), reason: z.enum(['gone', 'failing']) }),
    ]),
  }),
);

/** The caller's newest notifications. */
export const NotificationList = shape(
  'NotificationList',
  "The caller's newest notifications, newest first.",
  z.strictObject({ notifications: z.array(Notification).check(z.maxLength(NOTIFICATION_LIST_LIMIT)) }),
);

/** A notification marked read. */
export const NotificationRead = shape(
  'NotificationRead',
  'The notification now marked read.',
  z.strictObject({ id: id(), read: z.literal(true) }),
);

/** How many notifications were marked read. */
export const NotificationsMarkedRead = shape(
  'NotificationsMarkedRead',
  'How many of the caller\'s notifications were unread and are now marked read.',
  z.strictObject({ updated: z.int().check(z.gte(0)) }),
);
