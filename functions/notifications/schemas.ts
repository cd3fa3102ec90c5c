import * as z from '../../shared/zod';
import { booleanField } from '../../shared/http/fields';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const notificationIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a notification id (UUID)') }));

export const listNotificationsQuery = z.lazy(() =>
  z.strictObject({
    unread_only: z._default(booleanField(), false),
  }),
);
