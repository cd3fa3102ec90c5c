import type { routes } from '../../../functions/webhooks/schemas';
import type { GroupDocs } from '../operation-docs';
import { WEBHOOK_EVENT_TYPES } from '../../../shared/domain/webhooks/ports';
import {
  Webhook,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEvent,
  WebhookList,
  WebhookWithSecret,
} from '../shapes/webhooks';

const webhookId = '6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
const adminId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

const webhook = {
  id: webhookId,
  url: 'https://hooks.example.com/docservice',
  events: ['document.uploaded', 'ocr.completed', 'ocr.failed'],
  description: 'Bookkeeping import',
  active: true,
  disabled_reason: null,
  failing_since: null,
  created_by: adminId,
  created_at: '2026-11-01T08:00:00.000Z',
  updated_at: '2026-11-01T08:00:00.000Z',
};

const delivery = {
  id: 'msg_2Qd8bKz1VtY7pLmN4xRc9aWfEh',
  webhook_id: webhookId,
  event_id: 'evt_Vb3nM8qK2sT6yL0pR5wZ1cXhJd',
  type: 'ocr.completed',
  state: 'succeeded',
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  last_response: '{"ok":true}',
  duration_ms: 184,
  created_at: '2026-11-02T09:31:12.000Z',
  last_attempt_at: '2026-11-02T09:31:13.000Z',
  next_attempt_at: null,
};

/** How deliveries are made: said once, on the operations that create and list endpoints, and in the event docs. */
export const WEBHOOK_DELIVERY_RULES = [
  '**Events.** An endpoint subscribes to `document.uploaded`, `document.updated` (`data.changes` names the fields),',
  '`document.deleted`, `ocr.completed`, `ocr.failed`, `source.sync.completed` and `label.assigned` (one per label',
  'added). Each delivery is a POST of the `WebhookEvent` JSON `{id, type, created_at, workspace_id, data}`, with the',
  "document's fields as listed, never its text; a payload is at most 256 KB: past that the document's metadata is",
  'left out (`data.metadata_omitted: true`).',
  '',
  '**Signatures.** Every request is signed by the [Standard Webhooks](https://www.standardwebhooks.com) scheme:',
  '`webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of',
  '"<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64 part of the `whsec_` secret), so a receiver',
  "verifies it with any of the scheme's libraries. After a rotation the old and the new secret both sign (two",
  'space-separated signatures) for 24 hours.',
  '',
  '**Delivery.** At least once, and in no promised order: a retry carries the same `webhook-id`, by which a',
  'receiver drops repeats. An attempt has 10 s (connection to answer); any 2xx succeeds; a redirect is not',
  'followed (it is a failure). A failure (another status, a timeout, a refused address) is retried with backoff',
  'after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (each ±20 %, about 27 hours in all), then the delivery is',
  '`failed`. A `410 Gone` turns the endpoint off at once; an endpoint whose every attempt failed for three days is',
  'turned off too; either way `active` becomes false with `disabled_reason`, and the workspace\'s admins get a',
  '`webhook_disabled` notification. `PUT` with `active: true` turns it on again.',
  '',
  '**Addresses.** The URL is `http` or `https` without credentials. Private, loopback and link-local addresses are',
  'refused at each connection unless the deployment sets `WEBHOOKS_ALLOW_PRIVATE_NETWORKS` (a refused attempt is',
  'recorded as `last_error: "address_not_allowed"` and retried like any failure). Deliveries are kept 30 days.',
].join('\n');

/** Who manages webhooks: said on the operations that list and create them. */
const ACCESS =
  'Every webhook operation is for admins of the workspace; a personal API token works when it has the `admin` scope (a `read` or `write` token is 403), no session needed.';

const ROTATION = 'The new secret signs from now on; the one it replaces still signs beside it for 24 hours, so a receiver can switch without losing a delivery.';

export const webhooksDocs: GroupDocs<typeof routes> = {
  listWebhooks: {
    summary: "List the workspace's webhooks",
    description: [
      "The workspace's webhook endpoints, oldest first (at most 20; not paginated), never with their secrets.",
      ACCESS,
      '',
      WEBHOOK_DELIVERY_RULES,
    ].join('\n'),
    responses: { 200: { description: 'The webhooks.', schema: WebhookList, example: { webhooks: [webhook] } } },
  },
  createWebhook: {
    summary: 'Register a webhook',
    description: [
      '`events`: one or more of the event types (repeats are dropped); `active` defaults to `true`, `description` to',
      'null. The answer carries the signing secret (`whsec_…`) as `secret`, **this once**: it is stored sealed and',
      'never shown again (rotate it to get a new one). A workspace registers at most 20 webhooks.',
      ACCESS,
      '',
      WEBHOOK_DELIVERY_RULES,
    ].join('\n'),
    requestExample: { url: webhook.url, events: webhook.events, description: webhook.description },
    responses: {
      201: {
        description: 'The webhook, with its signing secret (shown this once).',
        schema: WebhookWithSecret,
        example: { ...webhook, secret: 'whsec_IsD4RUbf+mmgchLdI0E7JMnVI0t8wglV2v8UFycz/Wk=' },
      },
    },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'the workspace has 20 webhooks already: `details.reason` is `webhook_limit`, `details.limit` 20' }],
  },
  getWebhook: {
    summary: 'A webhook',
    description: 'One webhook endpoint of the workspace, without its secret. `failing_since` says since when every attempt has failed (three days of it turn the endpoint off).',
    responses: { 200: { description: 'The webhook.', schema: Webhook, example: webhook } },
  },
  updateWebhook: {
    summary: 'Change a webhook',
    description: [
      'Changes the fields given (at least one of `url`, `events`, `description`, `active`). Turning an endpoint on',
      'again (`active: true`) clears `disabled_reason` and `failing_since`: it has three days again before it is',
      'turned off. Deliveries already queued go to the URL the endpoint has when their turn comes; those queued',
      'while it is off are cancelled.',
    ].join('\n'),
    requestExample: { events: ['document.uploaded', 'document.deleted'], active: true },
    responses: {
      200: {
        description: 'The webhook as changed.',
        schema: Webhook,
        example: { ...webhook, events: ['document.uploaded', 'document.deleted'], updated_at: '2026-11-03T10:00:00.000Z' },
      },
    },
  },
  deleteWebhook: {
    summary: 'Delete a webhook',
    description: 'Removes the endpoint: nothing more is sent to it (its queued deliveries are cancelled when their turn comes). Its deliveries expire with their 30 days.',
    responses: { 204: { description: 'Deleted.' } },
  },
  rotateWebhookSecret: {
    summary: "Rotate a webhook's signing secret",
    description: `Makes a new signing secret and answers it as \`secret\`, **this once**. ${ROTATION} Secrets rotated out earlier and already expired are dropped.`,
    responses: {
      200: {
        description: 'The webhook, with its new signing secret (shown this once).',
        schema: WebhookWithSecret,
        example: { ...webhook, updated_at: '2026-11-04T12:00:00.000Z', secret: 'whsec_UTXRNftKmbvgFGVIENlDSW38nPz7vnImZcv4caAuGh0=' },
      },
    },
  },
  testWebhook: {
    summary: 'Send a test event to a webhook',
    description: [
      'Queues a `ping` event (`data: {webhook_id}`) to the endpoint, active or not, so it can be checked before it is',
      'turned on. It is signed and retried like any delivery, and its outcome shows in the deliveries; a failed ping',
      'never counts towards turning the endpoint off. The answer is the delivery, queued, before any attempt.',
    ].join('\n'),
    responses: {
      202: {
        description: 'The ping delivery, queued.',
        schema: WebhookDelivery,
        example: {
          ...delivery,
          id: 'msg_5c1f0e9d8b7a4c3e2d1f0a9b8c7d6e5f',
          event_id: 'evt_0a1b2c3d4e5f40718293a4b5c6d7e8f9',
          type: 'ping',
          state: 'pending',
          attempts: 0,
          last_status_code: null,
          last_response: null,
          duration_ms: null,
          created_at: '2026-11-04T12:05:00.000Z',
          last_attempt_at: null,
          next_attempt_at: '2026-11-04T12:05:00.000Z',
        },
      },
    },
  },
  listWebhookDeliveries: {
    summary: "A webhook's deliveries",
    description: [
      "The endpoint's deliveries of the last 30 days, newest first, one page (`page`, `per_page`), without their",
      'payloads: each with its state, attempts, the last status or error, the start of the last answer (256',
      'characters) and when the next attempt is due.',
    ].join('\n'),
    responses: {
      200: {
        description: 'One page of deliveries.',
        schema: WebhookDeliveryPage,
        example: {
          data: [
            {
              ...delivery,
              id: 'msg_8HfK2mQ9wZ4xT1vB7nC3pL6rYs',
              event_id: 'evt_R4tY8uI2oP6aS0dF3gH7jK1lZx',
              type: 'document.uploaded',
              state: 'pending',
              attempts: 2,
              last_status_code: 503,
              last_response: 'Service Unavailable',
              duration_ms: 42,
              created_at: '2026-11-02T09:40:00.000Z',
              last_attempt_at: '2026-11-02T09:45:06.000Z',
              next_attempt_at: '2026-11-02T10:15:06.000Z',
            },
            delivery,
          ],
          pagination: { page: 1, per_page: 20, total: 2, total_pages: 1, has_next: false, has_prev: false },
        },
      },
    },
  },
};

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The delivery (`msg_…`): the same on every retry; drop a repeat by it.' },
  { name: 'webhook-timestamp', description: 'When this attempt was signed, in integer seconds since the epoch.' },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, one per secret that signs (two for 24 hours after a rotation).',
  },
];

const pascal = (type: string) => type.replace(/(^|[._])(\w)/g, (_whole, _separator, letter: string) => letter.toUpperCase());

/**
 * The OpenAPI 3.1 top-level `webhooks`: one POST per event type (and the test `ping`), what the service sends to
 * a registered endpoint and what it makes of the answer.
 */
export function webhookEventDocs(componentRef: (schema: typeof WebhookEvent) => Record<string, unknown>): Record<string, unknown> {
  const types = [...WEBHOOK_EVENT_TYPES, 'ping'] as const;
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        post: {
          operationId: `on${pascal(type)}`,
          tags: ['webhooks'],
          summary: type === 'ping' ? 'A test event' : `The ${type} event`,
          description: [WEBHOOK_EVENT_DESCRIPTIONS[type], '', WEBHOOK_DELIVERY_RULES].join('\n'),
          security: [],
          parameters: SIGNATURE_HEADERS.map(({ name, description }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } })),
          requestBody: { required: true, content: { 'application/json': { schema: componentRef(WebhookEvent) } } },
          responses: {
            '200': { description: 'Received (any 2xx): the delivery succeeded; the body is not read beyond 4 KB.' },
            '410': { description: 'Gone: the endpoint is turned off at once and the admins are notified.' },
            default: { description: 'Anything else, a redirect, a timeout or no answer: the delivery is retried with backoff.' },
          },
        },
      },
    ]),
  );
}
