import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { OcrJobMessage, OcrJobQueue, OcrPriority } from '../../domain/ocr/jobs';

/** The body of an OCR queue message, as the worker reads it. */
export interface OcrQueueMessageBody {
  document_id: string;
  run: number;
  priority: OcrPriority;
}

/**
 * OCR jobs as SQS messages, on one queue per priority: each queue has its own event source, so high jobs never
 * wait behind a backlog of normal ones. The worker treats a message it sees twice as one job.
 */
export class SqsOcrJobQueue implements OcrJobQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrls: Record<OcrPriority, string>,
  ) {}

  async enqueue(message: OcrJobMessage): Promise<void> {
    const body: OcrQueueMessageBody = { document_id: message.documentId, run: message.run, priority: message.priority };
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrls[message.priority], MessageBody: JSON.stringify(body) }));
  }
}
