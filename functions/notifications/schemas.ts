import * as z from '../../shared/zod';
import { booleanField } from '../../shared/http/fields';

export const notificationIdParams = z.strictObject({ id: z.uuid('must be a notification id (UUID)') });

export const listNotificationsQuery = z.strictObject({
  unread_only: z._default(booleanField, false),
});
