import type { Clock } from '../clock';
import type { WorkspaceRepository } from '../workspaces/ports';
import type { DeliveryQueue, WebhookDeliveryRepository, WebhookRepository } from './ports';
import { RETRY_DELAYS_SECONDS } from './webhook';

/** How old a delivery still pending can be: every retry's wait at its longest (jitter +20 %), and a few hours more. */
export const PENDING_HORIZON_MS = (RETRY_DELAYS_SECONDS.reduce((sum, seconds) => sum + seconds, 0) * 1.2 + 3 * 3600) * 1000;

export interface ResumeDeliveriesDeps {
  workspaces: Pick<WorkspaceRepository, 'list'>;
  inWorkspace(workspaceId: string): { webhooks: WebhookRepository; deliveries: WebhookDeliveryRepository };
  deliveryQueue: DeliveryQueue;
  clock: Clock;
}

/**
 * Queues again every delivery still pending, in every workspace: what a runtime whose queue lived in memory (the
 * local one) had waiting when it stopped. Each goes back for its next attempt; the worker holds it until it is
 * due, and the claim drops any that another message already carries. Returns how many were queued.
 */
export async function resumePendingDeliveries(deps: ResumeDeliveriesDeps): Promise<number> {
  const since = new Date(deps.clock.now().getTime() - PENDING_HORIZON_MS).toISOString();
  let resumed = 0;
  for (const workspace of await deps.workspaces.list()) {
    const { webhooks, deliveries } = deps.inWorkspace(workspace.id);
    for (const webhook of await webhooks.list()) {
      for (const delivery of await deliveries.pendingSince(webhook.id, since)) {
        await deps.deliveryQueue.enqueue({ workspace_id: workspace.id, webhook_id: webhook.id, delivery_id: delivery.id, attempts: delivery.attempts });
        resumed++;
      }
    }
  }
  return resumed;
}
