import { updateSettings } from '../../shared/domain/settings/update-settings';
import { getSettings } from '../../shared/domain/settings/get-settings';
import type { Clock } from '../../shared/domain/clock';
import type { SettingsRepository } from '../../shared/domain/settings/ports';
import type { HttpGate } from '../../shared/container/kit/request-gate';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** What the settings endpoints use. */
export type SettingsDeps = HttpGate & { settings: SettingsRepository; clock: Clock };

/** GET and PUT /api/settings: each user's own settings, defaults filled in. */
export const createSettingsHandler = (c: SettingsDeps) =>
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
