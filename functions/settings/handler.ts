import { updateSettings } from '../../shared/domain/settings/update-settings';
import { getSettings } from '../../shared/domain/settings/get-settings';
import type { AppContainer } from '../../shared/container/app-container';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** GET and PUT /api/settings: each user's own settings, defaults filled in. */
export const createSettingsHandler = (c: AppContainer) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.getSettings,
        handle: async ({ principal }) => json(200, await getSettings(c, principal.userId)),
      }),
      route({
        ...routes.updateSettings,
        handle: async ({ principal, body }) => json(200, await updateSettings(c, principal.userId, body)),
      }),
    ],
  });
