import * as z from '../../shared/zod';
import { deliverWebhook, type DeliverDeps } from '../../shared/domain/webhooks/deliver-webhook';
import { BUSY_ENDPOINT_DELAY_SECONDS, EndpointSlots } from '../../shared/domain/webhooks/endpoint-slots';
import { logger } from '../../shared/observability/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

const deliveryMessage = z.object({
  workspace_id: z.uuid(),
  webhook_id: z.uuid(),
  delivery_id: z.string().check(z.regex(/^msg_[A-Za-z0-9_-]{1,64}$/)),
  attempts: z.number().check(z.int(), z.gte(0)),
});

/**
 * The delivery worker, fed by the delivery queue: each message is one attempt of one delivery (see
 * deliverWebhook). A message for an endpoint that already has its share of this worker in flight goes back to
 * the queue for a few seconds, so a slow endpoint never takes every slot. A malformed message is dropped; one
 * that fails (the table, the queue) is reported, and SQS delivers it again.
 */
export const createWebhookDeliveryHandler = (deps: DeliverDeps, slots = new EndpointSlots()) =>
  sqsJsonHandler('webhook-delivery', deliveryMessage, async (message) => {
    if (!slots.tryTake(message.webhook_id)) {
      await deps.deliveryQueue.enqueue(message, { delaySeconds: BUSY_ENDPOINT_DELAY_SECONDS });
      return;
    }
    try {
      const step = await deliverWebhook(deps, message);
      logger.debug('webhook-delivery: attempt done', { ...message, step });
    } finally {
      slots.release(message.webhook_id);
    }
  });
