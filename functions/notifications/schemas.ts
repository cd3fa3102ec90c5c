import * as z from '../../shared/zod';
import { booleanField } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const notificationIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a notification id (UUID)') }));

export const listNotificationsQuery = z.lazy(() =>
  z.strictObject({
    unread_only: z._default(booleanField(), false),
  }),
);

/** The notification routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  listNotifications: contract({ key: 'GET /api/notifications', access: 'viewer', query: listNotificationsQuery }),
  markNotificationRead: contract({ key: 'PUT /api/notifications/{id}/read', access: 'viewer', params: notificationIdParams }),
  markAllNotificationsRead: contract({ key: 'PUT /api/notifications/read-all', access: 'viewer' }),
} as const satisfies RouteContracts;
