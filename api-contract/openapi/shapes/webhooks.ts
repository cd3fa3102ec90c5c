import * as z from '../../../shared/zod';
import { REPORTED_FIELDS } from '../../../shared/domain/documents/document';
import { RESPONSE_EXCERPT_CHARS, WEBHOOK_EVENT_TYPES, type DeliveredEventType, type DeliveryState, type DisabledReason } from '../../../shared/domain/webhooks/ports';
import type { PublicDelivery, PublicWebhook } from '../../../shared/domain/webhooks/webhook';
import { pageOf } from './common';
import { DocumentSummary } from './documents';
import { id, shape, timestamp } from './registry';
import { SyncStatus } from './sources';

/** Compile errors here when the domain adds or drops a value these shapes list. */
const DISABLED_REASONS = { gone: 'gone', failing: 'failing' } as const satisfies { [R in DisabledReason]: R };
const DELIVERY_STATES = { pending: 'pending', succeeded: 'succeeded', failed: 'failed', cancelled: 'cancelled' } as const satisfies {
  [S in DeliveryState]: S;
};
const DELIVERED_TYPES = [...WEBHOOK_EVENT_TYPES, 'ping'] as const satisfies readonly DeliveredEventType[];

/** The event types an endpoint may subscribe to. */
export const WebhookEventType = shape(
  'WebhookEventType',
  'An event type an endpoint may subscribe to (each is described with the `WebhookEvent` payload).',
  z.enum(WEBHOOK_EVENT_TYPES),
);

// The fields of shared/domain/webhooks/webhook.ts `toPublicWebhook`: never a secret.
const webhookFields = () => ({
  id: id(),
  url: z.url().check(z.describe('Where deliveries are POSTed.')),
  events: z.array(WebhookEventType).check(z.describe('The event types the endpoint subscribed to.')),
  description: z.nullable(z.string()),
  active: z.boolean().check(z.describe('Whether events are delivered to it. Turned off by an admin, or by the service (see `disabled_reason`).')),
  disabled_reason: z
    .nullable(z.enum(DISABLED_REASONS))
    .check(
      z.describe(
        'Why the service turned the endpoint off: `gone` (it answered 410 Gone), `failing` (every attempt failed for three days). Null when it is on or an admin turned it off.',
      ),
    ),
  failing_since: z.nullable(timestamp()).check(z.describe('Since when every attempt to it has failed; null after a success.')),
  created_by: id().check(z.describe('The admin who registered it.')),
  created_at: timestamp(),
  updated_at: timestamp(),
});

/** A webhook endpoint as every webhook operation answers it. */
export const Webhook = shape(
  'Webhook',
  "An HTTP endpoint registered to hear of the workspace's changes. Its signing secret is never shown here.",
  z.strictObject(webhookFields()) satisfies z.ZodMiniType<PublicWebhook>,
);

/** The answer to a creation or a rotation: the only time the secret is shown. */
export const WebhookWithSecret = shape(
  'WebhookWithSecret',
  'A webhook endpoint with its new signing secret: shown this once (at creation or rotation), then stored only sealed.',
  z.strictObject({
    ...webhookFields(),
    secret: z
      .string()
      .check(
        z.regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
        z.describe('The signing secret: `whsec_` and the base64 of 32 random bytes, as the Standard Webhooks libraries take it.'),
      ),
  }),
);

/** `GET /api/webhooks`. */
export const WebhookList = shape('WebhookList', "The workspace's webhook endpoints, oldest first.", z.strictObject({ webhooks: z.array(Webhook) }));

/** A delivery as listed (shared/domain/webhooks/webhook.ts `toPublicDelivery`): without its payload. */
export const WebhookDelivery = shape(
  'WebhookDelivery',
  'One event for one endpoint and what its attempts met (without the payload). Every attempt carries its `id` as `webhook-id`.',
  z.strictObject({
    id: z.string().check(z.describe('The `webhook-id` header of each attempt (`msg_…`): the same on every retry.')),
    webhook_id: id(),
    event_id: z.string().check(z.describe('The event\'s `id` (`evt_…`); one event sent to several endpoints has one event id and a delivery each.')),
    type: z.enum(DELIVERED_TYPES),
    state: z
      .enum(DELIVERY_STATES)
      .check(
        z.describe(
          '`pending` (waiting for its first attempt or a retry), `succeeded` (a 2xx), `failed` (410, no retry left, or the endpoint was turned off for failing), `cancelled` (the endpoint was deleted or turned off before its turn).',
        ),
      ),
    attempts: z.int().check(z.gte(0)),
    last_status_code: z.nullable(z.int()).check(z.describe('The status of the last attempt; null before one, or when it got none (`last_error`).')),
    last_error: z
      .nullable(z.string())
      .check(
        z.describe(
          'Why the last attempt got no status: `timeout`, `address_not_allowed`, `connection_failed`; or why the delivery was cancelled: `webhook_deleted`, `webhook_inactive`.',
        ),
      ),
    last_response: z
      .nullable(z.string().check(z.maxLength(RESPONSE_EXCERPT_CHARS)))
      .check(z.describe(`The start of the endpoint's last answer, at most ${RESPONSE_EXCERPT_CHARS} characters.`)),
    duration_ms: z.nullable(z.int().check(z.gte(0))),
    created_at: timestamp(),
    last_attempt_at: z.nullable(timestamp()),
    next_attempt_at: z.nullable(timestamp()).check(z.describe('When the next attempt is due; null once the delivery is no longer pending.')),
  }) satisfies z.ZodMiniType<PublicDelivery>,
);

/** `GET /api/webhooks/{id}/deliveries`. */
export const WebhookDeliveryPage = shape(
  'WebhookDeliveryPage',
  "One page of an endpoint's deliveries of the last 30 days, newest first.",
  pageOf(WebhookDelivery),
);

/** What each event type says happened (and the `ping` of a test). */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<DeliveredEventType, string> = {
  'document.uploaded': 'A document was added (an upload, a bulk upload, a sync).',
  'document.updated': 'A field users see of a document changed (title, labels, metadata, or its file): `data.changes` names them.',
  'document.deleted': 'A document was deleted; `data.document` is what it was.',
  'ocr.completed': "A document's OCR completed.",
  'ocr.failed': "A document's OCR failed (`data.document.failure_reason` says why).",
  'label.assigned': "A label was put on a document: one event per label added, a new document's labels included.",
  'source.sync.completed': 'A sync of a source completed, with its counts.',
  ping: 'Sent by `POST /api/webhooks/{id}/test` only; no endpoint subscribes to it.',
};

const eventFields = {
  id: z.string().check(z.describe('The event (`evt_…`): the same when one change is delivered again.')),
  created_at: timestamp(),
  workspace_id: id(),
};

const documentData = {
  document: DocumentSummary,
  metadata_omitted: z.optional(z.literal(true)).check(z.describe('Present when the payload would have passed 256 KB: `document.metadata` is then `{}`; read the document by id.')),
};

const documentEvent = <T extends DeliveredEventType>(type: T) =>
  z.strictObject({ ...eventFields, type: z.literal(type), data: z.strictObject(documentData) }).check(z.describe(WEBHOOK_EVENT_DESCRIPTIONS[type]));

/** The body of every delivery: `{id, type, created_at, workspace_id, data}`, `data` by type. */
export const WebhookEvent = shape(
  'WebhookEvent',
  'The JSON body POSTed to an endpoint: `{id, type, created_at, workspace_id, data}`, `data` by `type`. Documents are given with their fields as listed (never their text).',
  z.discriminatedUnion('type', [
    documentEvent('document.uploaded'),
    z
      .strictObject({
        ...eventFields,
        type: z.literal('document.updated'),
        data: z.strictObject({ ...documentData, changes: z.array(z.enum(REPORTED_FIELDS)).check(z.minLength(1), z.describe('The fields that changed.')) }),
      })
      .check(z.describe(WEBHOOK_EVENT_DESCRIPTIONS['document.updated'])),
    documentEvent('document.deleted'),
    documentEvent('ocr.completed'),
    documentEvent('ocr.failed'),
    z
      .strictObject({ ...eventFields, type: z.literal('label.assigned'), data: z.strictObject({ ...documentData, label_id: id() }) })
      .check(z.describe(WEBHOOK_EVENT_DESCRIPTIONS['label.assigned'])),
    z
      .strictObject({ ...eventFields, type: z.literal('source.sync.completed'), data: z.strictObject({ sync: SyncStatus }) })
      .check(z.describe(WEBHOOK_EVENT_DESCRIPTIONS['source.sync.completed'])),
    z
      .strictObject({ ...eventFields, type: z.literal('ping'), data: z.strictObject({ webhook_id: id() }) })
      .check(z.describe(WEBHOOK_EVENT_DESCRIPTIONS.ping)),
  ]),
);
