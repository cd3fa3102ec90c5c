import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import type { OcrPriority } from '../../../domain/ocr/jobs';
import { MAX_QUEUE_DELAY_SECONDS } from '../../../domain/queues';
import type { OcrJobQueue, OcrJobQueues } from '../../../domain/ocr/ports';
import { requestIdMessageAttributes } from '../../../observability/log-context';

/** The body of an OCR queue message, as the worker reads it. */
export interface OcrQueueMessageBody {
  workspace_id: string;
  document_id: string;
  run: number;
  priority: OcrPriority;
  /** Present once the job was put back for throttling (see `OcrJobMessage.deferrals`). */
  deferrals?: number;
}

/**
 * OCR jobs as SQS messages, on one queue per priority: each queue has its own event source, so high jobs never
 * wait behind a backlog of normal ones. The worker treats a message it sees twice as one job.
 *
 * Each message's MessageGroupId is its workspace: on a standard queue that makes it an SQS fair queue (no queue
 * setting), where SQS delivers other workspaces' messages first while one workspace has a backlog. Locally the
 * poller takes turns by workspace (`LOCAL_OCR_POLLING` in shared/local/event-sources/ocr-polling.ts). A job enqueued within a request carries the
 * request's id (`request_id` attribute): the worker's log lines for it carry it too.
 */
export class SqsOcrJobQueue implements OcrJobQueues {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrls: Record<OcrPriority, string>,
  ) {}

  forWorkspace(workspaceId: string): OcrJobQueue {
    return {
      enqueue: async (message, options) => {
        const body: OcrQueueMessageBody = {
          workspace_id: workspaceId,
          document_id: message.documentId,
          run: message.run,
          priority: message.priority,
          ...(message.deferrals ? { deferrals: message.deferrals } : {}),
        };
        const delay = Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.round(options?.delaySeconds ?? 0)));
        await this.sqs.send(
          new SendMessageCommand({
            QueueUrl: this.queueUrls[message.priority],
            MessageBody: JSON.stringify(body),
            MessageGroupId: workspaceId,
            MessageAttributes: requestIdMessageAttributes(),
            ...(delay ? { DelaySeconds: delay } : {}),
          }),
        );
      },
    };
  }
}

/**
 * The workspace of an OCR job message: its MessageGroupId, else the body's `workspace_id` (an SQS emulator may
 * drop the group id of a standard queue's message), else '' (messages from before workspaces: the first one).
 */
export function ocrMessageWorkspace(record: SQSRecord): string {
  if (record.attributes.MessageGroupId) return record.attributes.MessageGroupId;
  try {
    const body: unknown = JSON.parse(record.body);
    const workspace = (body as Partial<OcrQueueMessageBody> | null)?.workspace_id;
    return typeof workspace === 'string' ? workspace : '';
  } catch {
    return '';
  }
}
