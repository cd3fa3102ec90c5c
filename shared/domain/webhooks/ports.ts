/**
 * Webhooks: a workspace's admins register HTTPS endpoints that hear of its changes. Each change of the table that
 * an endpoint subscribed to becomes one delivery, signed by the Standard Webhooks scheme and sent at least once
 * (a retry carries the same `webhook-id`); order is not promised.
 */

/** The events an endpoint may subscribe to (profile L's names, plus update, delete and label assignment). */
export const WEBHOOK_EVENT_TYPES = [
  'document.uploaded',
  'document.updated',
  'document.deleted',
  'ocr.completed',
  'ocr.failed',
  'source.sync.completed',
  'label.assigned',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What a delivery carries: a subscribed event, or the `ping` that `POST /api/webhooks/{id}/test` sends. */
export type DeliveredEventType = WebhookEventType | 'ping';

/** How many endpoints one workspace may register. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;
/** The largest payload sent; an event whose payload would be larger is sent without its document's metadata. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;
/** How much of an endpoint's answer is read (the rest is discarded). */
export const MAX_RESPONSE_BYTES = 4 * 1024;
/** How much of that is kept on the delivery, to show the admin what the endpoint said. */
export const RESPONSE_EXCERPT_CHARS = 256;
/** How long one attempt may take, connection to last byte read. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How long a rotated secret still signs beside its successor. */
export const ROTATED_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;
/** How long deliveries are kept. */
export const DELIVERY_RETENTION_DAYS = 30;
/** An endpoint that has failed every attempt for this long is disabled (its admins are told). */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 60 * 60 * 1000;

/** A signing secret: the plaintext never stored, only sealed by the credential vault. */
export interface WebhookSecret {
  sealed: string;
  created_at: string;
  /** When a rotated-out secret stops signing; null for the current one. */
  expires_at: string | null;
}

/** Why an endpoint stopped: its receiver answered 410 Gone, or it failed for {@link DISABLE_AFTER_FAILING_MS}. */
export type DisabledReason = 'gone' | 'failing';

/** A registered endpoint as stored. */
export interface WebhookRecord {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  active: boolean;
  /** Why the service turned `active` off; null when it is on or an admin turned it off. */
  disabled_reason: DisabledReason | null;
  /** Since when every attempt has failed (null after a success): what disables a dead endpoint. */
  failing_since: string | null;
  secrets: WebhookSecret[];
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Where a delivery is: waiting for its next attempt, done, or given up. */
export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/** One event for one endpoint, and what its attempts met. */
export interface WebhookDelivery {
  /** The `webhook-id`: the same on every attempt. */
  id: string;
  webhook_id: string;
  workspace_id: string;
  /** The event's id (`payload.id`): one event sent to several endpoints has one event id and a delivery each. */
  event_id: string;
  type: DeliveredEventType;
  state: DeliveryState;
  attempts: number;
  last_status_code: number | null;
  /** Why the last attempt failed when no status says it (timeout, address_not_allowed, connection_failed). */
  last_error: string | null;
  /** The start of what the endpoint answered last, at most {@link RESPONSE_EXCERPT_CHARS} characters. */
  last_response: string | null;
  /** How long the last attempt took. */
  duration_ms: number | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  /** The JSON body sent, the same on every attempt. */
  payload: string;
}

/** A request to an endpoint, signed. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Why an attempt got no HTTP status. */
export type WebhookSendError = 'timeout' | 'address_not_allowed' | 'connection_failed';

/** What one attempt met: a status (any, redirects included: they are not followed), or an error. */
export interface WebhookResponse {
  status: number | null;
  error: WebhookSendError | null;
  durationMs: number;
  /** The start of the body read (at most {@link MAX_RESPONSE_BYTES} bytes are read), as text. */
  body: string;
}

/**
 * Sends one signed request: POST, no redirect followed, at most {@link DELIVERY_TIMEOUT_MS}, the answer read to
 * {@link MAX_RESPONSE_BYTES}; every connection checked against the address policy. Never throws for what the
 * endpoint does: an unreachable, refused or slow endpoint is a response with `error`.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}

/** What an admin may change of an endpoint; `secrets` and the failure fields change through their use cases. */
export type WebhookChanges = Partial<
  Pick<WebhookRecord, 'url' | 'events' | 'description' | 'active' | 'disabled_reason' | 'failing_since' | 'secrets' | 'updated_at'>
>;

/** One workspace's endpoints (a workspace has few: {@link MAX_WEBHOOKS_PER_WORKSPACE}). */
export interface WebhookRepository {
  /** Stores a new endpoint unless the workspace holds `limit` already; answers `limit` then. */
  create(webhook: WebhookRecord, limit: number): Promise<'created' | 'limit'>;
  get(id: string): Promise<WebhookRecord | null>;
  /** Every endpoint of the workspace, oldest first. */
  list(): Promise<WebhookRecord[]>;
  /** Null when the endpoint does not exist. */
  update(id: string, changes: WebhookChanges): Promise<WebhookRecord | null>;
  /** Removes the endpoint (its deliveries expire with their TTL); false when it did not exist. */
  delete(id: string): Promise<boolean>;
}

/** What an attempt recorded on its delivery. */
export interface AttemptOutcome {
  state: DeliveryState;
  last_status_code: number | null;
  last_error: string | null;
  last_response: string | null;
  duration_ms: number | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

/** One workspace's deliveries, kept {@link DELIVERY_RETENTION_DAYS} days. */
export interface WebhookDeliveryRepository {
  /** Stores a new delivery; false when one with its id exists (the same change delivered again). */
  createIfAbsent(delivery: WebhookDelivery): Promise<boolean>;
  get(id: string): Promise<WebhookDelivery | null>;
  /**
   * Takes attempt `attempts + 1` of a pending delivery for one worker (a lease until `leaseUntil`): when it has
   * made exactly `attempts` attempts and no worker holds it, or when that attempt was claimed already by a
   * worker whose lease ran out before it recorded anything (it died). False otherwise: a message delivered twice
   * makes one attempt.
   */
  claim(id: string, attempts: number, now: string, leaseUntil: string): Promise<boolean>;
  /** Records what the claimed attempt met and lets the lease go. */
  record(id: string, outcome: AttemptOutcome): Promise<void>;
  /** One endpoint's deliveries created at or after `since` that are still pending. */
  pendingSince(webhookId: string, since: string): Promise<WebhookDelivery[]>;
  /** One endpoint's deliveries, newest first, one page of them, and how many there are. */
  list(webhookId: string, page: { page: number; perPage: number }): Promise<{ items: WebhookDelivery[]; total: number }>;
}

/** Says which delivery to attempt, and which attempt this message is for. */
export interface DeliveryMessage {
  workspace_id: string;
  /** The endpoint, so that a worker can hold back a busy endpoint's deliveries before reading anything. */
  webhook_id: string;
  delivery_id: string;
  /** Attempts made before this message was sent: a message for an attempt already made is dropped. */
  attempts: number;
}

/**
 * Hands deliveries to the delivery workers (SQS), now or after `delaySeconds` (at most MAX_QUEUE_DELAY_SECONDS:
 * a longer wait takes several hops).
 */
export interface DeliveryQueue {
  enqueue(message: DeliveryMessage, options?: { delaySeconds?: number }): Promise<void>;
}
