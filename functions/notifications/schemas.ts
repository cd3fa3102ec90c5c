import * as z from 'zod';

export const notificationIdParams = z.strictObject({ id: z.uuid('must be a notification id (UUID)') });

export const listNotificationsQuery = z.strictObject({
  unread_only: z
    .enum(['true', 'false', '1', '0'])
    .transform((value) => value === 'true' || value === '1')
    .default(false),
});
