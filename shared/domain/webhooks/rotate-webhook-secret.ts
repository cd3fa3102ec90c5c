import { notFound } from '../errors';
import { secretContext, type WebhookAdminDeps } from './manage-deps';
import { ROTATED_SECRET_GRACE_MS } from './ports';
import { generateSigningSecret } from './signature';
import { signingSecrets, toPublicWebhook, type PublicWebhook } from './webhook';

/**
 * An admin replaces an endpoint's signing secret. The new one (in this answer only, as `secret`) signs from now
 * on; the one it replaces still signs beside it for 24 hours, so a receiver can switch without losing a
 * delivery. Secrets rotated out earlier and already expired are dropped.
 */
export async function rotateWebhookSecret(deps: WebhookAdminDeps, id: string): Promise<PublicWebhook & { secret: string }> {
  const webhook = await deps.webhooks.get(id);
  if (!webhook) throw notFound('Webhook', id);
  const now = deps.clock.now();
  const graceEnd = new Date(now.getTime() + ROTATED_SECRET_GRACE_MS).toISOString();
  const secret = generateSigningSecret();
  const kept = signingSecrets(webhook, now).map((old) => ({ ...old, expires_at: old.expires_at ?? graceEnd }));
  const sealed = await deps.vault.seal(secret, secretContext(deps.workspaceId, id));
  const updated = await deps.webhooks.update(id, {
    secrets: [{ sealed, created_at: now.toISOString(), expires_at: null }, ...kept],
    updated_at: now.toISOString(),
  });
  if (!updated) throw notFound('Webhook', id);
  return { ...toPublicWebhook(updated), secret };
}
