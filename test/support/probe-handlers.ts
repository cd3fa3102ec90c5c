import { createAuthHandler } from '../../functions/auth/handler';
import { createDocumentsHandler } from '../../functions/documents/handler';
import { createHealthHandler } from '../../functions/health/handler';
import { createLabelsHandler } from '../../functions/labels/handler';
import { createNotificationsHandler } from '../../functions/notifications/handler';
import { createOcrHandler } from '../../functions/ocr/handler';
import { createSearchHandler } from '../../functions/search/handler';
import { createSettingsHandler } from '../../functions/settings/handler';
import { createSourcesHandler } from '../../functions/sources/handler';
import { createUsersHandler } from '../../functions/users/handler';
import { createWebhooksHandler } from '../../functions/webhooks/handler';
import { createWorkspacesHandler } from '../../functions/workspaces/handler';
import { createAuditHandler } from '../../functions/audit/handler';
import { createPortabilityHandler } from '../../functions/portability/handler';
import { unauthorized } from '../../shared/domain/errors';
import type { HttpHandler } from '../../shared/http/pipeline';
import type { HttpGroup } from '../../shared/manifest';

/**
 * Every group's HTTP handler over stand-in deps whose token check refuses every token and records that it
 * ran: enough to learn which routes a handler serves and which ask for a token, never to serve one.
 */
export function probeHandlers(): { handlers: Record<HttpGroup, HttpHandler>; authenticated(): boolean; reset(): void } {
  let authenticated = false;
  const container = {
    corsOrigins: '*',
    healthProbes: [],
    oidc: null,
    limits: async () => null,
    authenticate: async () => {
      authenticated = true;
      throw unauthorized('The token is not valid');
    },
    tokens: { verify: async () => Promise.reject(unauthorized('The token is not valid')) },
    // Each handler reads only these before it refuses: the cast stands for every handler's deps.
  } as never;
  return {
    handlers: {
      auth: createAuthHandler(container),
      users: createUsersHandler(container),
      settings: createSettingsHandler(container),
      documents: createDocumentsHandler(container),
      labels: createLabelsHandler(container),
      search: createSearchHandler(container),
      ocr: createOcrHandler(container),
      sources: createSourcesHandler(container),
      notifications: createNotificationsHandler(container),
      webhooks: createWebhooksHandler(container),
      workspaces: createWorkspacesHandler(container),
      portability: createPortabilityHandler(container),
      audit: createAuditHandler(container),
      health: createHealthHandler(container),
    },
    authenticated: () => authenticated,
    reset: () => {
      authenticated = false;
    },
  };
}
