import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../observability/logger';
import { runForTenant } from '../../adapters/tenant-context';

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
  /**
   * Long-poll wait of each receive (a receive returns as soon as a message arrives, so a longer wait costs no
   * latency, only fewer requests on an idle queue). @default 1
   */
  waitTimeSeconds?: number;
  /**
   * Stop cuts the receive in flight short instead of waiting out its long poll. A message the queue hands to that
   * receive in the same instant stays invisible for its visibility timeout, so only a queue that ends with the
   * poller (the local runtime's, in memory) should use it. @default false
   */
  abortReceiveOnStop?: boolean;
  /**
   * Locally, a failed message is made visible again after this many seconds instead of waiting out the queue's
   * visibility timeout (minutes, sized for the slowest job), so retries and the DLQ are reached in seconds.
   * @default receiveCount => min(2 ** receiveCount, 30)
   */
  retryDelaySeconds?: (receiveCount: number) => number;
  /**
   * The tenant a message belongs to: received messages wait for a handler call in one line per tenant, and the
   * lines take turns (see {@link startQueuePoller}). @default the message's MessageGroupId, else one line for all
   */
  tenantOf?: (record: SQSRecord) => string;
  /**
   * Messages received ahead of free handler calls, so that a tenant's message further back in the queue is seen
   * and takes its turn before the backlog ahead of it is done. They stay invisible (their visibility is extended
   * while they wait) and count towards their receives once. @default 0 (receive only for a free call)
   */
  prefetch?: number;
}

export interface QueuePoller {
  /** Stops receiving, makes the messages received ahead visible again and waits for the batches in flight. */
  stop(): Promise<void>;
}

/** A received message waiting for a handler call. */
interface Waiting {
  message: Message;
  record: SQSRecord;
  tenant: string;
  /** When its visibility timeout runs out (ms since the epoch). */
  invisibleUntil: number;
}

/**
 * Polls an SQS queue and hands batches to a handler with the semantics of a Lambda event source mapping:
 * messages stay invisible while processed, succeed as a batch minus the reported `batchItemFailures`, are
 * deleted only on success, and return after their visibility timeout otherwise (the queue's redrive policy
 * moves them to the DLQ). A handler that throws fails the whole batch.
 *
 * Fair turns: received messages wait in one line per tenant ({@link QueuePollerOptions.tenantOf}); a free
 * handler call takes one message from each line in a round (tenants in the order their line formed, each
 * line in the order it was received), so a tenant's message waits for at most one message of every other
 * tenant with messages waiting, however long their lines. With `prefetch`, up to that many messages beyond
 * the calls in flight are received ahead; a message waiting is kept invisible (extended when half its
 * visibility timeout is gone) and given the queue's whole timeout again when its call starts, as SQS does for
 * a message Lambda receives. A call whose messages are all of one tenant runs as that tenant (`currentTenant`).
 */
export function startQueuePoller(options: QueuePollerOptions): QueuePoller {
  const { sqs, queueUrl, handler } = options;
  const batchSize = options.batchSize ?? 10;
  const concurrency = options.concurrency ?? 1;
  const prefetch = options.prefetch ?? 0;
  const tenantOf = options.tenantOf ?? ((record: SQSRecord) => record.attributes.MessageGroupId ?? '');
  const retryDelay = options.retryDelaySeconds ?? ((count: number) => Math.min(2 ** count, 30));
  let stopped = false;
  const stopping = new AbortController();
  let queueAttributes: Promise<{ arn: string; visibilitySeconds: number }> | undefined;
  const attributes = () =>
    (queueAttributes ??= sqs
      .send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn', 'VisibilityTimeout'] }))
      .then((result) => ({
        arn: result.Attributes?.['QueueArn'] ?? queueUrl,
        visibilitySeconds: Number(result.Attributes?.['VisibilityTimeout'] ?? 30),
      }))
      .catch((error: unknown) => {
        queueAttributes = undefined;
        throw error;
      }));

  /** Per tenant, the messages waiting for a call; a Map keeps the tenants' turn order. */
  const lines = new Map<string, Waiting[]>();
  let waiting = 0;
  let calls = 0;
  const inFlight = new Set<Promise<void>>();
  let roomMade: (() => void) | undefined;
  const makeRoom = () => {
    roomMade?.();
    roomMade = undefined;
  };

  const receiveLoop = async (): Promise<void> => {
    while (!stopped) {
      // Messages for the free calls plus those received ahead, less those already waiting.
      const room = (concurrency - calls) * batchSize + prefetch - waiting;
      if (room <= 0) {
        await new Promise<void>((resolve) => (roomMade = resolve));
        continue;
      }
      try {
        const { arn, visibilitySeconds } = await attributes();
        keepInvisible(visibilitySeconds);
        // By default not cut short on stop: a receive aborted by the client may still take messages, invisible then
        // for the whole timeout; it ends within its wait, and what it took is released with the other waiting ones.
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(room, 10),
            WaitTimeSeconds: options.waitTimeSeconds ?? 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          options.abortReceiveOnStop ? { abortSignal: stopping.signal } : {},
        );
        const invisibleUntil = Date.now() + visibilitySeconds * 1000;
        for (const message of Messages) {
          const record = toRecord(message, arn);
          const tenant = tenantOf(record);
          const line = lines.get(tenant);
          if (line) line.push({ message, record, tenant, invisibleUntil });
          else lines.set(tenant, [{ message, record, tenant, invisibleUntil }]);
          waiting++;
        }
        dispatch();
      } catch (error) {
        if (stopped) return;
        logger.warn('queue poller: receive failed, retrying', { queue_url: queueUrl, error });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };

  /** Starts a call for each free slot while messages wait, taking them from the tenants' lines in turn. */
  const dispatch = (): void => {
    while (!stopped && calls < concurrency && waiting > 0) {
      const batch: Waiting[] = [];
      while (batch.length < batchSize && waiting > 0) {
        const [tenant, line] = lines.entries().next().value!;
        batch.push(line.shift()!);
        waiting--;
        // The tenant goes to the back of the round, or leaves it when its line is empty.
        lines.delete(tenant);
        if (line.length > 0) lines.set(tenant, line);
      }
      calls++;
      const call = deliver(batch).finally(() => {
        calls--;
        inFlight.delete(call);
        dispatch();
        makeRoom();
      });
      inFlight.add(call);
    }
  };

  const deliver = async (batch: Waiting[]): Promise<void> => {
    const { visibilitySeconds } = await attributes();
    // A message that waited gets the whole timeout for its call, as one Lambda receives just now would.
    await setVisibility(batch.filter((entry) => entry.invisibleUntil < Date.now() + (visibilitySeconds - 1) * 1000), visibilitySeconds);
    const messages = batch.map((entry) => entry.message);
    const records = batch.map((entry) => entry.record);
    let failed: Set<string>;
    try {
      // A call for one tenant runs as that tenant (tenant-context.ts): the OCR engine's pages take turns by it.
      const tenants = new Set(batch.map((entry) => entry.tenant));
      const call = () => handler({ Records: records });
      const response = await (tenants.size === 1 ? runForTenant(batch[0]!.tenant, call) : call());
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      logger.error('queue poller: handler failed, the whole batch will be retried', { queue_url: queueUrl, error });
      failed = new Set(records.map((record) => record.messageId));
    }
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length) {
      await sqs
        .send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
          }),
        )
        .catch((error: unknown) => logger.warn('queue poller: delete failed, the messages will be delivered again', { queue_url: queueUrl, error }));
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

  /** Sets the visibility timeout of messages this poller holds, ten per request. */
  const setVisibility = async (entries: Waiting[], seconds: number): Promise<void> => {
    for (let at = 0; at < entries.length; at += 10) {
      const chunk = entries.slice(at, at + 10);
      await sqs
        .send(
          new ChangeMessageVisibilityBatchCommand({
            QueueUrl: queueUrl,
            Entries: chunk.map((entry, index) => ({ Id: String(index), ReceiptHandle: entry.message.ReceiptHandle!, VisibilityTimeout: seconds })),
          }),
        )
        .then(
          ({ Failed = [] }) => {
            if (Failed.length) logger.warn('queue poller: could not change the visibility of held messages', { queue_url: queueUrl, failed: Failed });
            chunk.forEach((entry) => (entry.invisibleUntil = Date.now() + seconds * 1000));
          },
          // The message may be delivered again, to this poller or another: the handlers treat a delivery seen twice as one.
          (error: unknown) => logger.warn('queue poller: could not change the visibility of held messages', { queue_url: queueUrl, error }),
        );
    }
  };

  // Messages waiting for a call are kept invisible: each is extended once half its timeout is gone.
  let extending = Promise.resolve();
  let extender: NodeJS.Timeout | undefined;
  const keepInvisible = (visibilitySeconds: number): void => {
    if (prefetch === 0 || extender || stopped) return;
    extender = setInterval(() => {
      const due = [...lines.values()].flat().filter((entry) => entry.invisibleUntil - Date.now() < (visibilitySeconds * 1000) / 2);
      if (due.length) extending = extending.then(() => setVisibility(due, visibilitySeconds));
    }, Math.max(250, visibilitySeconds * 250));
  };

  const receiving = receiveLoop();
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(extender);
      makeRoom();
      await Promise.allSettled([receiving, extending]);
      const held = [...lines.values()].flat();
      lines.clear();
      waiting = 0;
      // Released rather than left invisible for the whole timeout: the next poller takes them at once.
      await setVisibility(held, 0);
      await Promise.allSettled([...inFlight]);
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
      ...(attributes.MessageGroupId === undefined ? {} : { MessageGroupId: attributes.MessageGroupId }),
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
