import type { ChangeOutcome, ItemChange } from '../changes/ports';
import { MAX_PAYLOAD_BYTES, type DeliveryQueue, type WebhookDelivery, type WebhookDeliveryRepository, type WebhookRecord, type WebhookRepository } from './ports';
import { deliveryIdOf, webhookEventsOf, type WebhookEvent } from './webhook-events';

export interface DispatchDeps {
  /** One workspace's endpoints and deliveries. */
  inWorkspace(workspaceId: string): { webhooks: WebhookRepository; deliveries: WebhookDeliveryRepository };
  deliveryQueue: DeliveryQueue;
}

/**
 * The `webhooks` consumer of the table's stream: each change's events ({@link webhookEventsOf}) become one
 * delivery per active endpoint of the workspace subscribed to the event's type, stored and queued for the
 * delivery workers, which send them. Nothing here waits on an endpoint, so a slow or dead one never holds the
 * stream (nor the index and the events, which have their own consumers).
 *
 * A change delivered again finds its deliveries stored (their ids derive from the change) and queues only those
 * not attempted yet, so an event is sent at least once and, but for that rare case, once. A change whose reads
 * or writes fail stops the batch there: its sequence is returned and the changes from it on come again.
 */
export async function dispatchWebhookEvents(deps: DispatchDeps, changes: ItemChange[]): Promise<ChangeOutcome> {
  const endpoints = new Map<string, Promise<WebhookRecord[]>>();
  const activeIn = (workspaceId: string) => {
    let listed = endpoints.get(workspaceId);
    if (!listed) {
      listed = deps.inWorkspace(workspaceId).webhooks.list().then((all) => all.filter((webhook) => webhook.active));
      endpoints.set(workspaceId, listed);
    }
    return listed;
  };
  for (const change of changes) {
    try {
      for (const event of webhookEventsOf(change)) {
        const subscribed = (await activeIn(event.workspace_id)).filter((webhook) => webhook.events.includes(event.type));
        // An event's endpoints are independent (order is not promised): their deliveries are stored and queued side by side.
        await Promise.all(subscribed.map((webhook) => dispatch(deps, event, webhook)));
      }
    } catch {
      return { failedAt: change.sequence };
    }
  }
  return {};
}

async function dispatch(deps: DispatchDeps, event: WebhookEvent, webhook: WebhookRecord): Promise<void> {
  const { deliveries } = deps.inWorkspace(event.workspace_id);
  const delivery: WebhookDelivery = {
    id: deliveryIdOf(event.id, webhook.id),
    webhook_id: webhook.id,
    workspace_id: event.workspace_id,
    event_id: event.id,
    type: event.type,
    state: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    last_response: null,
    duration_ms: null,
    created_at: event.created_at,
    last_attempt_at: null,
    next_attempt_at: event.created_at,
    payload: payloadOf(event),
  };
  if (!(await deliveries.createIfAbsent(delivery))) {
    const stored = await deliveries.get(delivery.id);
    if (!stored || stored.state !== 'pending' || stored.attempts > 0) return;
  }
  await deps.deliveryQueue.enqueue({ workspace_id: event.workspace_id, webhook_id: webhook.id, delivery_id: delivery.id, attempts: 0 });
}

/**
 * The JSON body: `{id, type, created_at, workspace_id, data}`. A document whose metadata would take the body
 * past {@link MAX_PAYLOAD_BYTES} is sent without it (`metadata_omitted: true`); the receiver reads it by id.
 */
export function payloadOf(event: WebhookEvent): string {
  const body = JSON.stringify(event);
  if (Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES) return body;
  const document = event.data['document'] as Record<string, unknown> | undefined;
  if (!document) return body;
  return JSON.stringify({ ...event, data: { ...event.data, document: { ...document, metadata: {} }, metadata_omitted: true } });
}
