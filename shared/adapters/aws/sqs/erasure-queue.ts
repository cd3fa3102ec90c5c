import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ErasureQueue } from '../../../domain/erasure/ports';
import { requestIdMessageAttributes } from '../../../observability/log-context';

/** Workspace erasures as SQS messages for the eraser, each with the request id of the deletion that asked for it. */
export class SqsErasureQueue implements ErasureQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: { workspace_id: string }): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message), MessageAttributes: requestIdMessageAttributes() }));
  }
}
