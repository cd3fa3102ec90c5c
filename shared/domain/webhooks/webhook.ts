import type { WebhookDelivery, WebhookRecord } from './ports';

/** An endpoint as the API shows it: never a secret, sealed or not. */
export type PublicWebhook = Omit<WebhookRecord, 'secrets' | 'workspace_id'>;

export const toPublicWebhook = ({ secrets: _secrets, workspace_id: _workspace, ...webhook }: WebhookRecord): PublicWebhook => webhook;

/** A delivery as the API lists it: what its attempts met, without the payload. */
export type PublicDelivery = Omit<WebhookDelivery, 'payload' | 'workspace_id'>;

export const toPublicDelivery = ({ payload: _payload, workspace_id: _workspace, ...delivery }: WebhookDelivery): PublicDelivery => delivery;

/** The secrets that sign now: the current one, and those rotated out less than a day ago. */
export const signingSecrets = (webhook: WebhookRecord, now: Date): WebhookRecord['secrets'] =>
  webhook.secrets.filter((secret) => secret.expires_at === null || Date.parse(secret.expires_at) > now.getTime());

/**
 * The waits before each retry, after the first attempt: together more than a day (27.6 hours), as the issue
 * asks, front-loaded so a blip is retried within seconds. Each is spread by up to a fifth either way (jitter).
 */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/** The wait before retry `n` (1 for the first retry), with jitter; null when no retry is left. */
export function retryDelaySeconds(n: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_SECONDS[n - 1];
  if (base === undefined) return null;
  return Math.max(1, Math.round(base * (0.8 + 0.4 * random())));
}
