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
  const poller = new SqsQueuePoller(options);
  poller.start();
  return { stop: () => poller.stop() };
}

/** One poller's state: the tenants' lines of waiting messages, the calls in flight, the receive loop. */
class SqsQueuePoller {
  private readonly sqs: SQSClient;
  private readonly queueUrl: string;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly prefetch: number;
  private readonly tenantOf: (record: SQSRecord) => string;
  private readonly retryDelay: (receiveCount: number) => number;
  private stopped = false;
  private readonly stopping = new AbortController();
  private queueAttributes: Promise<{ arn: string; visibilitySeconds: number }> | undefined;
  /** Per tenant, the messages waiting for a call; a Map keeps the tenants' turn order. */
  private readonly lines = new Map<string, Waiting[]>();
  private waiting = 0;
  private calls = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private roomMade: (() => void) | undefined;
  private receiving: Promise<void> = Promise.resolve();
  // Messages waiting for a call are kept invisible: each is extended once half its timeout is gone.
  private extending = Promise.resolve();
  private extender: NodeJS.Timeout | undefined;

  constructor(private readonly options: QueuePollerOptions) {
    this.sqs = options.sqs;
    this.queueUrl = options.queueUrl;
    this.batchSize = options.batchSize ?? 10;
    this.concurrency = options.concurrency ?? 1;
    this.prefetch = options.prefetch ?? 0;
    this.tenantOf = options.tenantOf ?? ((record: SQSRecord) => record.attributes.MessageGroupId ?? '');
    this.retryDelay = options.retryDelaySeconds ?? ((count: number) => Math.min(2 ** count, 30));
  }

  start(): void {
    this.receiving = this.receiveLoop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    clearInterval(this.extender);
    this.makeRoom();
    await Promise.allSettled([this.receiving, this.extending]);
    const held = [...this.lines.values()].flat();
    this.lines.clear();
    this.waiting = 0;
    // Released rather than left invisible for the whole timeout: the next poller takes them at once.
    await this.setVisibility(held, 0);
    await Promise.allSettled([...this.inFlight]);
  }

  /** The queue's ARN and visibility timeout, read once (again after a failed read). */
  private attributes(): Promise<{ arn: string; visibilitySeconds: number }> {
    return (this.queueAttributes ??= this.sqs
      .send(new GetQueueAttributesCommand({ QueueUrl: this.queueUrl, AttributeNames: ['QueueArn', 'VisibilityTimeout'] }))
      .then((result) => ({
        arn: result.Attributes?.['QueueArn'] ?? this.queueUrl,
        visibilitySeconds: Number(result.Attributes?.['VisibilityTimeout'] ?? 30),
      }))
      .catch((error: unknown) => {
        this.queueAttributes = undefined;
        throw error;
      }));
  }

  private makeRoom(): void {
    this.roomMade?.();
    this.roomMade = undefined;
  }

  private async receiveLoop(): Promise<void> {
    while (!this.stopped) {
      // Messages for the free calls plus those received ahead, less those already waiting.
      const room = (this.concurrency - this.calls) * this.batchSize + this.prefetch - this.waiting;
      if (room <= 0) {
        await new Promise<void>((resolve) => (this.roomMade = resolve));
        continue;
      }
      try {
        await this.receive(room);
      } catch (error) {
        if (this.stopped) return;
        logger.warn('queue poller: receive failed, retrying', { queue_url: this.queueUrl, error });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  /** Receives up to `room` messages into their tenants' lines and starts the calls there is room for. */
  private async receive(room: number): Promise<void> {
    const { arn, visibilitySeconds } = await this.attributes();
    this.keepInvisible(visibilitySeconds);
    // By default not cut short on stop: a receive aborted by the client may still take messages, invisible then
    // for the whole timeout; it ends within its wait, and what it took is released with the other waiting ones.
    const { Messages = [] } = await this.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.queueUrl,
        MaxNumberOfMessages: Math.min(room, 10),
        WaitTimeSeconds: this.options.waitTimeSeconds ?? 1,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      this.options.abortReceiveOnStop ? { abortSignal: this.stopping.signal } : {},
    );
    const invisibleUntil = Date.now() + visibilitySeconds * 1000;
    for (const message of Messages) {
      const record = toRecord(message, arn);
      const tenant = this.tenantOf(record);
      const line = this.lines.get(tenant);
      if (line) line.push({ message, record, tenant, invisibleUntil });
      else this.lines.set(tenant, [{ message, record, tenant, invisibleUntil }]);
      this.waiting++;
    }
    this.dispatch();
  }

  /** Starts a call for each free slot while messages wait, taking them from the tenants' lines in turn. */
  private dispatch(): void {
    while (!this.stopped && this.calls < this.concurrency && this.waiting > 0) {
      const batch: Waiting[] = [];
      while (batch.length < this.batchSize && this.waiting > 0) {
        const [tenant, line] = this.lines.entries().next().value!;
        batch.push(line.shift()!);
        this.waiting--;
        // The tenant goes to the back of the round, or leaves it when its line is empty.
        this.lines.delete(tenant);
        if (line.length > 0) this.lines.set(tenant, line);
      }
      this.calls++;
      const call = this.deliver(batch).finally(() => {
        this.calls--;
        this.inFlight.delete(call);
        this.dispatch();
        this.makeRoom();
      });
      this.inFlight.add(call);
    }
  }

  /** One handler call: deletes what succeeded, makes what failed visible again after its retry delay. */
  private async deliver(batch: Waiting[]): Promise<void> {
    const { visibilitySeconds } = await this.attributes();
    // A message that waited gets the whole timeout for its call, as one Lambda receives just now would.
    await this.setVisibility(
      batch.filter((entry) => entry.invisibleUntil < Date.now() + (visibilitySeconds - 1) * 1000),
      visibilitySeconds,
    );
    const messages = batch.map((entry) => entry.message);
    const failed = await this.call(batch);
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length) {
      await this.sqs
        .send(
          new DeleteMessageBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
          }),
        )
        .catch((error: unknown) =>
          logger.warn('queue poller: delete failed, the messages will be delivered again', { queue_url: this.queueUrl, error }),
        );
    }
    await Promise.all(
      messages
        .filter((message) => failed.has(message.MessageId!))
        .map((message) =>
          this.sqs
            .send(
              new ChangeMessageVisibilityCommand({
                QueueUrl: this.queueUrl,
                ReceiptHandle: message.ReceiptHandle!,
                VisibilityTimeout: this.retryDelay(Number(message.Attributes?.ApproximateReceiveCount ?? 1)),
              }),
            )
            .catch(() => undefined),
        ),
    );
  }

  /** Calls the handler with the batch; the ids of the messages that failed (all of them when it throws). */
  private async call(batch: Waiting[]): Promise<Set<string>> {
    const records = batch.map((entry) => entry.record);
    try {
      // A call for one tenant runs as that tenant (tenant-context.ts): the OCR engine's pages take turns by it.
      const tenants = new Set(batch.map((entry) => entry.tenant));
      const call = () => this.options.handler({ Records: records });
      const response = await (tenants.size === 1 ? runForTenant(batch[0]!.tenant, call) : call());
      return new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      logger.error('queue poller: handler failed, the whole batch will be retried', { queue_url: this.queueUrl, error });
      return new Set(records.map((record) => record.messageId));
    }
  }

  /** Sets the visibility timeout of messages this poller holds, ten per request. */
  private async setVisibility(entries: Waiting[], seconds: number): Promise<void> {
    for (let at = 0; at < entries.length; at += 10) {
      const chunk = entries.slice(at, at + 10);
      await this.sqs
        .send(
          new ChangeMessageVisibilityBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: chunk.map((entry, index) => ({ Id: String(index), ReceiptHandle: entry.message.ReceiptHandle!, VisibilityTimeout: seconds })),
          }),
        )
        .then(
          ({ Failed = [] }) => {
            if (Failed.length) logger.warn('queue poller: could not change the visibility of held messages', { queue_url: this.queueUrl, failed: Failed });
            chunk.forEach((entry) => (entry.invisibleUntil = Date.now() + seconds * 1000));
          },
          // The message may be delivered again, to this poller or another: the handlers treat a delivery seen twice as one.
          (error: unknown) => logger.warn('queue poller: could not change the visibility of held messages', { queue_url: this.queueUrl, error }),
        );
    }
  }

  /** With `prefetch`, starts extending the visibility of the messages waiting, once half their timeout is gone. */
  private keepInvisible(visibilitySeconds: number): void {
    if (this.prefetch === 0 || this.extender || this.stopped) return;
    this.extender = setInterval(() => {
      const due = [...this.lines.values()].flat().filter((entry) => entry.invisibleUntil - Date.now() < (visibilitySeconds * 1000) / 2);
      if (due.length) this.extending = this.extending.then(() => this.setVisibility(due, visibilitySeconds));
    }, Math.max(250, visibilitySeconds * 250));
  }
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
