import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { OcrJob, OcrJobQueue } from '../../domain/documents/ports';

/** OCR jobs as SQS messages; the worker treats a message it sees twice as one job. */
export class SqsOcrJobQueue implements OcrJobQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: OcrJob): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify({ document_id: job.documentId, language: job.language, priority: job.priority }),
      }),
    );
  }
}
