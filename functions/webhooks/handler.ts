import type { HttpGate } from '../../shared/container/kit/request-gate';
import type { Clock } from '../../shared/domain/clock';
import type { CredentialVault } from '../../shared/domain/sources/ports';
import type { WebhookServices } from '../../shared/container/kit/webhooks';
import type { WebhookAdminDeps } from '../../shared/domain/webhooks/manage-deps';
import { createWebhook } from '../../shared/domain/webhooks/create-webhook';
import { getWebhook, listDeliveries, listWebhooks } from '../../shared/domain/webhooks/read-webhooks';
import { rotateWebhookSecret } from '../../shared/domain/webhooks/rotate-webhook-secret';
import { testWebhook } from '../../shared/domain/webhooks/test-webhook';
import { deleteWebhook, updateWebhook } from '../../shared/domain/webhooks/update-webhook';
import { httpHandler } from '../../shared/http/pipeline';
import { json, noContent } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** What the admin's webhook operations take, for one workspace. */
const webhookAdminDepsOf = (c: WebhooksDeps, workspaceId: string): WebhookAdminDeps => ({
  workspaceId,
  ...c.webhookStores(workspaceId),
  deliveryQueue: c.deliveryQueue,
  vault: c.vault,
  clock: c.clock,
});

/** What the webhook endpoints use: each workspace's endpoints and deliveries, the delivery queue, the secrets' vault. */
export type WebhooksDeps = HttpGate & { clock: Clock; vault: CredentialVault } & WebhookServices;

/** The webhook endpoints: a workspace's admins register endpoints, rotate their secrets, test them and read their deliveries. */
export const createWebhooksHandler = (c: WebhooksDeps) => {
  const deps = (workspaceId: string) => webhookAdminDepsOf(c, workspaceId);
  return httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({ ...routes.listWebhooks, handle: async ({ principal }) => json(200, await listWebhooks(deps(principal.workspaceId))) }),
      route({
        ...routes.createWebhook,
        handle: async ({ principal, body }) =>
          json(
            201,
            await createWebhook(deps(principal.workspaceId), principal, {
              url: body.url,
              events: body.events,
              description: body.description,
              active: body.active,
            }),
          ),
      }),
      route({ ...routes.getWebhook, handle: async ({ principal, params }) => json(200, await getWebhook(deps(principal.workspaceId), params.id)) }),
      route({
        ...routes.updateWebhook,
        handle: async ({ principal, params, body }) =>
          json(
            200,
            await updateWebhook(deps(principal.workspaceId), params.id, {
              url: body.url,
              events: body.events,
              description: body.description,
              active: body.active,
            }),
          ),
      }),
      route({
        ...routes.deleteWebhook,
        handle: async ({ principal, params }) => {
          await deleteWebhook(deps(principal.workspaceId), params.id);
          return noContent();
        },
      }),
      route({
        ...routes.rotateWebhookSecret,
        handle: async ({ principal, params }) => json(200, await rotateWebhookSecret(deps(principal.workspaceId), params.id)),
      }),
      route({ ...routes.testWebhook, handle: async ({ principal, params }) => json(202, await testWebhook(deps(principal.workspaceId), params.id)) }),
      route({
        ...routes.listWebhookDeliveries,
        handle: async ({ principal, params, query }) =>
          json(200, await listDeliveries(deps(principal.workspaceId), params.id, { page: query.page, perPage: query.per_page })),
      }),
    ],
  });
};
