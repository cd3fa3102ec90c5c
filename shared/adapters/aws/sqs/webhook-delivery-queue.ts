import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { MAX_QUEUE_DELAY_SECONDS } from '../../../domain/queues';
import type { DeliveryMessage, DeliveryQueue } from '../../../domain/webhooks/ports';

/**
 * Webhook deliveries as SQS messages, delayed for a retry. The MessageGroupId is the workspace, as for OCR jobs
 * and syncs: a standard queue then serves other workspaces first while one workspace has many deliveries.
 */
export class SqsWebhookDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: DeliveryMessage, options?: { delaySeconds?: number }): Promise<void> {
    const delay = Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.round(options?.delaySeconds ?? 0)));
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        MessageGroupId: message.workspace_id,
        ...(delay ? { DelaySeconds: delay } : {}),
      }),
    );
  }
}
