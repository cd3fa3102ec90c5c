import { notFound } from '../errors';
import type { WebhookAdminDeps } from './manage-deps';
import type { WebhookDelivery } from './ports';
import { toPublicDelivery, type PublicDelivery } from './webhook';

/**
 * An admin asks for a `ping` to an endpoint (active or not, so it can be checked before it is turned on): a
 * delivery like any other, queued at once, signed and retried the same way; its outcome shows in the
 * endpoint's deliveries.
 */
export async function testWebhook(deps: WebhookAdminDeps, id: string): Promise<PublicDelivery> {
  const webhook = await deps.webhooks.get(id);
  if (!webhook) throw notFound('Webhook', id);
  const now = deps.clock.now().toISOString();
  const eventId = `evt_${crypto.randomUUID().replaceAll('-', '')}`;
  const payload = { id: eventId, type: 'ping', created_at: now, workspace_id: deps.workspaceId, data: { webhook_id: id } };
  const delivery: WebhookDelivery = {
    id: `msg_${crypto.randomUUID().replaceAll('-', '')}`,
    webhook_id: id,
    workspace_id: deps.workspaceId,
    event_id: eventId,
    type: 'ping',
    state: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    last_response: null,
    duration_ms: null,
    created_at: now,
    last_attempt_at: null,
    next_attempt_at: now,
    payload: JSON.stringify(payload),
  };
  await deps.deliveries.createIfAbsent(delivery);
  await deps.deliveryQueue.enqueue({ workspace_id: deps.workspaceId, webhook_id: id, delivery_id: delivery.id, attempts: 0 });
  return toPublicDelivery(delivery);
}
