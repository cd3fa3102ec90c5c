import type { HttpGate } from '../../shared/container/kit/request-gate';
import type { NotificationRepository } from '../../shared/domain/notifications/ports';
import { markAllNotificationsRead } from '../../shared/domain/notifications/mark-all-notifications-read';
import { markNotificationRead } from '../../shared/domain/notifications/mark-notification-read';
import { listNotifications } from '../../shared/domain/notifications/list-notifications';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** What the notification endpoints use. */
export type NotificationsDeps = HttpGate & { notifications: NotificationRepository };

/** The caller's own notifications: list (newest first), mark one read, mark all read. */
export const createNotificationsHandler = (c: NotificationsDeps) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.listNotifications,
        handle: async ({ query, principal }) => json(200, await listNotifications(c, principal.userId, query.unread_only)),
      }),
      route({
        ...routes.markNotificationRead,
        // An update: 200 with what changed, as P's success statuses say (not 204, which P keeps for document delete).
        handle: async ({ params, principal }) => {
          await markNotificationRead(c, principal.userId, params.id);
          return json(200, { id: params.id, read: true });
        },
      }),
      route({
        ...routes.markAllNotificationsRead,
        handle: async ({ principal }) => json(200, await markAllNotificationsRead(c, principal.userId)),
      }),
    ],
  });
