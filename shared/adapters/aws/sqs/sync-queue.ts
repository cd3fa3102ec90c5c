import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SyncQueue, SyncStepMessage } from '../../../domain/sources/ports';
import { requestIdMessageAttributes } from '../../../observability/log-context';

/**
 * Sync steps as SQS messages. The MessageGroupId is the workspace, as for OCR jobs: a standard queue then
 * delivers other workspaces' syncs first while one workspace has many. A sync started by a request carries its
 * id (`request_id` attribute), and so does each step a sync run enqueues after it.
 */
export class SqsSyncQueue implements SyncQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: SyncStepMessage): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        MessageGroupId: message.workspace_id,
        MessageAttributes: requestIdMessageAttributes(),
      }),
    );
  }
}
