import * as z from '../../shared/zod';
import { pageQuery } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';
import { WEBHOOK_EVENT_TYPES } from '../../shared/domain/webhooks/ports';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const webhookIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a webhook id (UUID)') }));

/** Where deliveries go: http or https (the address policy decides which hosts), no credentials in the URL. */
const url = () =>
  z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).check(
    z.maxLength(2048),
    // z.url's own check does not stop this one: a value that is no URL is refused there, not thrown on here.
    z.refine((value) => !URL.canParse(value) || (!new URL(value).username && !new URL(value).password), 'must not carry credentials'),
  );
const events = () => z.array(z.enum(WEBHOOK_EVENT_TYPES)).check(z.minLength(1, 'subscribe to at least one event'), z.maxLength(WEBHOOK_EVENT_TYPES.length * 2));
const description = () => z.nullable(z.string().check(z.trim(), z.maxLength(1000)));

export const createWebhookBody = z.lazy(() =>
  z.strictObject({ url: url(), events: events(), description: z.optional(description()), active: z._default(z.boolean(), true) }),
);

export const updateWebhookBody = z.lazy(() =>
  z
    .partial(z.strictObject({ url: url(), events: events(), description: description(), active: z.boolean() }))
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'give at least one of url, events, description, active' })),
);

/** The webhook routes' contracts, by operation id: a workspace's admins manage its endpoints. */
export const routes = {
  listWebhooks: contract({ key: 'GET /api/webhooks', access: 'admin' }),
  createWebhook: contract({ key: 'POST /api/webhooks', access: 'admin', body: createWebhookBody }),
  getWebhook: contract({ key: 'GET /api/webhooks/{id}', access: 'admin', params: webhookIdParams }),
  updateWebhook: contract({ key: 'PUT /api/webhooks/{id}', access: 'admin', params: webhookIdParams, body: updateWebhookBody }),
  deleteWebhook: contract({ key: 'DELETE /api/webhooks/{id}', access: 'admin', params: webhookIdParams }),
  rotateWebhookSecret: contract({ key: 'POST /api/webhooks/{id}/rotate-secret', access: 'admin', params: webhookIdParams }),
  testWebhook: contract({ key: 'POST /api/webhooks/{id}/test', access: 'admin', params: webhookIdParams }),
  listWebhookDeliveries: contract({ key: 'GET /api/webhooks/{id}/deliveries', access: 'admin', params: webhookIdParams, query: pageQuery }),
} as const satisfies RouteContracts;
