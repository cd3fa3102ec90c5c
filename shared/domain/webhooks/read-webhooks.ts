import { notFound } from '../errors';
import { pageOf, type Page, type PageRequest } from '../pagination';
import type { WebhookAdminDeps } from './manage-deps';
import { toPublicDelivery, toPublicWebhook, type PublicDelivery, type PublicWebhook } from './webhook';

/** The workspace's endpoints, oldest first. */
export async function listWebhooks(deps: Pick<WebhookAdminDeps, 'webhooks'>): Promise<{ webhooks: PublicWebhook[] }> {
  return { webhooks: (await deps.webhooks.list()).map(toPublicWebhook) };
}

/** One endpoint of the workspace; 404 for an unknown id (or another workspace's). */
export async function getWebhook(deps: Pick<WebhookAdminDeps, 'webhooks'>, id: string): Promise<PublicWebhook> {
  const webhook = await deps.webhooks.get(id);
  if (!webhook) throw notFound('Webhook', id);
  return toPublicWebhook(webhook);
}

/** An endpoint's deliveries of the last 30 days, newest first, one P page. */
export async function listDeliveries(deps: Pick<WebhookAdminDeps, 'webhooks' | 'deliveries'>, id: string, page: PageRequest): Promise<Page<PublicDelivery>> {
  if (!(await deps.webhooks.get(id))) throw notFound('Webhook', id);
  const { items, total } = await deps.deliveries.list(id, page);
  return pageOf(items.map(toPublicDelivery), page, total);
}
