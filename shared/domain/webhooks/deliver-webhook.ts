import type { Clock } from '../clock';
import type { CredentialVault } from '../sources/ports';
import { secretContext } from './manage-deps';
import {
  DISABLE_AFTER_FAILING_MS,
  RESPONSE_EXCERPT_CHARS,
  type AttemptOutcome,
  type DeliveryMessage,
  type DeliveryQueue,
  type DisabledReason,
  type WebhookDelivery,
  type WebhookDeliveryRepository,
  type WebhookRecord,
  type WebhookRepository,
  type WebhookResponse,
  type WebhookSender,
} from './ports';
import { MAX_QUEUE_DELAY_SECONDS } from '../queues';
import { signatureHeaders } from './signature';
import { retryDelaySeconds, signingSecrets } from './webhook';

/** One workspace's endpoints and deliveries, and a word to its admins. */
export interface DeliveryWorkspace {
  webhooks: WebhookRepository;
  deliveries: WebhookDeliveryRepository;
  /** Tells the workspace's admins that the service turned an endpoint off. */
  notifyAdmins(notice: { title: string; message: string; data: { webhook_id: string; reason: DisabledReason } }): Promise<void>;
}

export interface DeliverDeps {
  inWorkspace(workspaceId: string): DeliveryWorkspace;
  sender: WebhookSender;
  vault: CredentialVault;
  deliveryQueue: DeliveryQueue;
  clock: Clock;
  random?: () => number;
  /** Whether a workspace serves now: a suspended one's deliveries wait (their messages come back) until it is resumed. */
  serves?(workspaceId: string): Promise<boolean>;
  /** Whether a workspace is being deleted (or was): its deliveries are dropped, never sent nor waited for. */
  deleting?(workspaceId: string): Promise<boolean>;
}

/** A suspended workspace's delivery is looked at again after this long. */
export const SUSPENDED_RECHECK_SECONDS = 60;

/** What a message led to, for logs and tests. */
export type DeliveryStep = 'skipped' | 'waiting' | 'succeeded' | 'retrying' | 'failed' | 'cancelled';

/** How long one attempt holds its delivery: the send's deadline and some. */
const LEASE_MS = 30_000;

/**
 * Makes one attempt of a queued delivery: signs its payload with every secret that signs now (Standard
 * Webhooks: `webhook-id` is the delivery's id, the same on every attempt), sends it, and records the outcome.
 * - any 2xx: succeeded; the endpoint is no longer failing;
 * - 410 Gone: failed, and the endpoint is turned off at once (its admins are told);
 * - anything else (another status, a timeout, a refused address): retried after the next wait of
 *   {@link retryDelaySeconds} through a delayed message (waits past the queue's 15 minutes take several hops),
 *   or failed when none is left; an endpoint that has failed everything for three days is turned off.
 * A message for an attempt already made (delivered twice) or a delivery no longer pending does nothing; a
 * delivery whose endpoint was deleted or turned off is cancelled (but a `ping`, which may test an endpoint
 * that is off).
 */
export async function deliverWebhook(deps: DeliverDeps, message: DeliveryMessage): Promise<DeliveryStep> {
  if (deps.deleting && (await deps.deleting(message.workspace_id))) return 'skipped';
  if (deps.serves && !(await deps.serves(message.workspace_id))) {
    await deps.deliveryQueue.enqueue(message, { delaySeconds: SUSPENDED_RECHECK_SECONDS });
    return 'waiting';
  }
  const workspace = deps.inWorkspace(message.workspace_id);
  const delivery = await workspace.deliveries.get(message.delivery_id);
  // Its attempt, or (one more) its attempt claimed by a worker that died before recording it: the claim decides.
  if (!delivery || delivery.state !== 'pending' || delivery.attempts < message.attempts || delivery.attempts > message.attempts + 1) return 'skipped';
  const now = deps.clock.now();
  const dueIn = delivery.next_attempt_at ? Date.parse(delivery.next_attempt_at) - now.getTime() : 0;
  if (dueIn > 1000) {
    await deps.deliveryQueue.enqueue(message, { delaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(dueIn / 1000)) });
    return 'waiting';
  }
  const webhook = await workspace.webhooks.get(delivery.webhook_id);
  if (!webhook || (!webhook.active && delivery.type !== 'ping')) {
    await workspace.deliveries.record(delivery.id, { ...unattempted(delivery), state: 'cancelled', last_error: webhook ? 'webhook_inactive' : 'webhook_deleted' });
    return 'cancelled';
  }
  if (!(await workspace.deliveries.claim(delivery.id, message.attempts, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString()))) return 'skipped';
  const response = await send(deps, webhook, delivery, now);
  const attempts = message.attempts + 1;
  const at = deps.clock.now();
  const seen = seenOf(response, at);
  if (response.status !== null && response.status >= 200 && response.status < 300) {
    await workspace.deliveries.record(delivery.id, { ...seen, state: 'succeeded', next_attempt_at: null });
    if (webhook.failing_since) await workspace.webhooks.update(webhook.id, { failing_since: null });
    return 'succeeded';
  }
  if (response.status === 410) {
    await workspace.deliveries.record(delivery.id, { ...seen, state: 'failed', next_attempt_at: null });
    await disable(workspace, webhook, 'gone', at);
    return 'failed';
  }
  // A ping tests an endpoint (maybe one that is off): its failures do not count towards turning it off.
  const failingSince = delivery.type === 'ping' ? null : (webhook.failing_since ?? at.toISOString());
  if (failingSince && !webhook.failing_since) await workspace.webhooks.update(webhook.id, { failing_since: failingSince });
  const wait = retryDelaySeconds(attempts, deps.random);
  if (failingSince && at.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS) {
    await workspace.deliveries.record(delivery.id, { ...seen, state: 'failed', next_attempt_at: null });
    await disable(workspace, webhook, 'failing', at);
    return 'failed';
  }
  if (wait === null) {
    await workspace.deliveries.record(delivery.id, { ...seen, state: 'failed', next_attempt_at: null });
    return 'failed';
  }
  const next = new Date(at.getTime() + wait * 1000);
  await workspace.deliveries.record(delivery.id, { ...seen, state: 'pending', next_attempt_at: next.toISOString() });
  await deps.deliveryQueue.enqueue({ ...message, attempts }, { delaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, wait) });
  return 'retrying';
}

async function send(deps: DeliverDeps, webhook: WebhookRecord, delivery: WebhookDelivery, now: Date): Promise<WebhookResponse> {
  const secrets = await Promise.all(
    signingSecrets(webhook, now).map((secret) => deps.vault.open(secret.sealed, secretContext(webhook.workspace_id, webhook.id))),
  );
  const headers = signatureHeaders({ id: delivery.id, timestamp: now, body: delivery.payload, secrets });
  return deps.sender.send({ url: webhook.url, headers, body: delivery.payload });
}

const seenOf = (response: WebhookResponse, at: Date): Omit<AttemptOutcome, 'state' | 'next_attempt_at'> => ({
  last_status_code: response.status,
  last_error: response.error,
  last_response: response.body ? response.body.slice(0, RESPONSE_EXCERPT_CHARS) : null,
  duration_ms: Math.round(response.durationMs),
  last_attempt_at: at.toISOString(),
});

const unattempted = (delivery: WebhookDelivery): AttemptOutcome => ({
  state: delivery.state,
  last_status_code: delivery.last_status_code,
  last_error: delivery.last_error,
  last_response: delivery.last_response,
  duration_ms: delivery.duration_ms,
  last_attempt_at: delivery.last_attempt_at,
  next_attempt_at: null,
});

async function disable(workspace: DeliveryWorkspace, webhook: WebhookRecord, reason: DisabledReason, at: Date): Promise<void> {
  if (!webhook.active) return;
  await workspace.webhooks.update(webhook.id, { active: false, disabled_reason: reason, updated_at: at.toISOString() });
  const why = reason === 'gone' ? 'it answered 410 Gone' : 'every delivery to it failed for three days';
  await workspace
    .notifyAdmins({
      title: 'Webhook disabled',
      message: `The webhook to ${webhook.url} was turned off because ${why}. Turn it on again once it works.`,
      data: { webhook_id: webhook.id, reason },
    })
    .catch(() => undefined);
}
