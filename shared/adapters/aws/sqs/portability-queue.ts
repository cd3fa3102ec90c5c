import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { PortabilityMessage, PortabilityQueue } from '../../../domain/portability/ports';
import { requestIdMessageAttributes } from '../../../observability/log-context';

/** Exports and imports as SQS messages for the portability worker, each with the request id that started it. */
export class SqsPortabilityQueue implements PortabilityQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: PortabilityMessage): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message), MessageAttributes: requestIdMessageAttributes() }));
  }
}
