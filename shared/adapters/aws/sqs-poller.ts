import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../logger';

/** How the local poller drives a handler, as a Lambda event source mapping would. */
export interface QueuePollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  /** The same handler the cloud wires to the queue's event source mapping. */
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  /** Messages per handler call (SQS allows at most 10). @default 10 */
  batchSize?: number;
  /** Handler calls in flight at once (a Lambda's concurrency). @default 1 */
  concurrency?: number;
  /** Long-poll wait of each receive. @default 1 */
  waitTimeSeconds?: number;
  /**
   * Locally, a failed message is made visible again after this many seconds instead of waiting out the queue's
   * visibility timeout (minutes, sized for the slowest job), so retries and the DLQ are reached in seconds.
   * @default receiveCount => min(2 ** receiveCount, 30)
   */
  retryDelaySeconds?: (receiveCount: number) => number;
}

export interface QueuePoller {
  /** Stops receiving and waits for the batches in flight. */
  stop(): Promise<void>;
}

/**
 * Polls an SQS queue and hands batches to a handler with the semantics of a Lambda event source mapping:
 * messages stay invisible while processed, succeed as a batch minus the reported `batchItemFailures`, are
 * deleted only on success, and return after their visibility timeout otherwise (the queue's redrive policy
 * moves them to the DLQ). A handler that throws fails the whole batch.
 */
export function startQueuePoller(options: QueuePollerOptions): QueuePoller {
  const { sqs, queueUrl, handler } = options;
  const batchSize = options.batchSize ?? 10;
  const retryDelay = options.retryDelaySeconds ?? ((count: number) => Math.min(2 ** count, 30));
  const abort = new AbortController();
  let queueArn: Promise<string> | undefined;
  const arn = () =>
    (queueArn ??= sqs
      .send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))
      .then((result) => result.Attributes?.['QueueArn'] ?? queueUrl));

  const loop = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: options.waitTimeSeconds ?? 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        );
        if (Messages.length) await deliver(Messages);
      } catch (error) {
        if (abort.signal.aborted) return;
        logger.warn('queue poller: receive failed, retrying', { queueUrl, error });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };

  const deliver = async (messages: Message[]): Promise<void> => {
    const records = await Promise.all(messages.map(async (message) => toRecord(message, await arn())));
    let failed: Set<string>;
    try {
      const response = await handler({ Records: records });
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      logger.error('queue poller: handler failed, the whole batch will be retried', { queueUrl, error });
      failed = new Set(records.map((record) => record.messageId));
    }
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
        }),
      );
    }
    await Promise.all(
      messages
        .filter((message) => failed.has(message.MessageId!))
        .map((message) =>
          sqs
            .send(
              new ChangeMessageVisibilityCommand({
                QueueUrl: queueUrl,
                ReceiptHandle: message.ReceiptHandle!,
                VisibilityTimeout: retryDelay(Number(message.Attributes?.ApproximateReceiveCount ?? 1)),
              }),
            )
            .catch(() => undefined),
        ),
    );
  };

  const workers = Array.from({ length: options.concurrency ?? 1 }, () => loop());
  return {
    async stop() {
      abort.abort();
      await Promise.allSettled(workers);
    },
  };
}

/** An SQS message in the shape Lambda's SQS event source gives it. */
function toRecord(message: Message, eventSourceARN: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        { stringValue: value.StringValue, dataType: value.DataType ?? 'String', stringListValues: [], binaryListValues: [] },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion: 'us-east-1',
  };
}
