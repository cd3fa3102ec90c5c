import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { OcrJobQueue, OcrJobQueues, OcrPriority } from '../../domain/ocr/jobs';

/** The body of an OCR queue message, as the worker reads it. */
export interface OcrQueueMessageBody {
  workspace_id: string;
  document_id: string;
  run: number;
  priority: OcrPriority;
}

/**
 * OCR jobs as SQS messages, on one queue per priority: each queue has its own event source, so high jobs never
 * wait behind a backlog of normal ones. The worker treats a message it sees twice as one job.
 */
export class SqsOcrJobQueue implements OcrJobQueues {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrls: Record<OcrPriority, string>,
  ) {}

  forWorkspace(workspaceId: string): OcrJobQueue {
    return {
      enqueue: async (message) => {
        const body: OcrQueueMessageBody = { workspace_id: workspaceId, document_id: message.documentId, run: message.run, priority: message.priority };
        await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrls[message.priority], MessageBody: JSON.stringify(body) }));
      },
    };
  }
}
