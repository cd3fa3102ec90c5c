import { conflict } from '../errors';
import type { Principal } from '../principal';
import { secretContext, type WebhookAdminDeps } from './manage-deps';
import { MAX_WEBHOOKS_PER_WORKSPACE, type WebhookEventType, type WebhookRecord } from './ports';
import { generateSigningSecret } from './signature';
import { toPublicWebhook, type PublicWebhook } from './webhook';

export interface NewWebhook {
  url: string;
  events: WebhookEventType[];
  description?: string | null | undefined;
  active: boolean;
}

/**
 * An admin registers an endpoint. Its signing secret (`whsec_…`) is in this answer only, as `secret`; the
 * store keeps it sealed. A workspace holds at most {@link MAX_WEBHOOKS_PER_WORKSPACE} endpoints (409,
 * `details.reason = "webhook_limit"`).
 */
export async function createWebhook(deps: WebhookAdminDeps, caller: Principal, input: NewWebhook): Promise<PublicWebhook & { secret: string }> {
  const now = deps.clock.now().toISOString();
  const id = crypto.randomUUID();
  const secret = generateSigningSecret();
  const record: WebhookRecord = {
    id,
    workspace_id: deps.workspaceId,
    url: input.url,
    events: [...new Set(input.events)],
    description: input.description ?? null,
    active: input.active,
    disabled_reason: null,
    failing_since: null,
    secrets: [{ sealed: await deps.vault.seal(secret, secretContext(deps.workspaceId, id)), created_at: now, expires_at: null }],
    created_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  if ((await deps.webhooks.create(record, MAX_WEBHOOKS_PER_WORKSPACE)) === 'limit') {
    throw conflict(`A workspace may register at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks: delete one first`, {
      reason: 'webhook_limit',
      limit: MAX_WEBHOOKS_PER_WORKSPACE,
    });
  }
  return { ...toPublicWebhook(record), secret };
}
