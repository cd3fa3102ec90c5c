import { notFound } from '../errors';
import type { WebhookAdminDeps } from './manage-deps';
import type { WebhookChanges, WebhookEventType } from './ports';
import { toPublicWebhook, type PublicWebhook } from './webhook';

export interface WebhookUpdate {
  url?: string | undefined;
  events?: WebhookEventType[] | undefined;
  description?: string | null | undefined;
  active?: boolean | undefined;
}

/**
 * An admin changes an endpoint. Turning it on again (`active: true`) forgets why the service turned it off and
 * since when it failed: it gets three days again before it is disabled.
 */
export async function updateWebhook(deps: Pick<WebhookAdminDeps, 'webhooks' | 'clock'>, id: string, update: WebhookUpdate): Promise<PublicWebhook> {
  const changes: WebhookChanges = { updated_at: deps.clock.now().toISOString() };
  if (update.url !== undefined) changes.url = update.url;
  if (update.events !== undefined) changes.events = [...new Set(update.events)];
  if (update.description !== undefined) changes.description = update.description;
  if (update.active !== undefined) {
    changes.active = update.active;
    changes.disabled_reason = null;
    if (update.active) changes.failing_since = null;
  }
  const updated = await deps.webhooks.update(id, changes);
  if (!updated) throw notFound('Webhook', id);
  return toPublicWebhook(updated);
}

/** An admin removes an endpoint: nothing more is sent to it (deliveries queued for it are cancelled when their turn comes). */
export async function deleteWebhook(deps: Pick<WebhookAdminDeps, 'webhooks'>, id: string): Promise<void> {
  if (!(await deps.webhooks.delete(id))) throw notFound('Webhook', id);
}
