import { SendMessageCommand, ReceiveMessageCommand, type SendMessageCommandInput } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { startQueuePoller } from '../../../../shared/local/event-sources/sqs-poller';
import { testClients, uniqueName } from '../../../support/aws-resources';
import type { SQSEvent } from 'aws-lambda';
import { SqsOcrJobQueue, type OcrQueueMessageBody } from '../../../../shared/adapters/aws/sqs/ocr-job-queue';
import { LOCAL_OCR_POLLING } from '../../../../shared/local/event-sources/ocr-polling';
import { until } from '../../../support/until';

const { sqs } = testClients();

/**
 * Under the 20 s long poll these tests open, less the half second before they act: what a poller that waited the
 * poll out would take. Far above what cutting it short takes, however loaded the machine.
 */
const SHORT_OF_THE_POLL_MS = 18_000;

/** How long `work` took, in ms. */
const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const started = Date.now();
  await work();
  return Date.now() - started;
};

describe('queue poller: stopping during a long poll', () => {
  it('cuts its 20-second long poll short when told to', async () => {
    const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('stop-abort'), { visibilityTimeoutSeconds: 30 });
    const poller = startQueuePoller({ sqs, queueUrl, handler: async () => undefined, waitTimeSeconds: 20, abortReceiveOnStop: true });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const stopMs = await timed(() => poller.stop());

    expect(stopMs).toBeLessThan(SHORT_OF_THE_POLL_MS);
  }, 60_000);

  it('waits out its long poll by default, since what an aborted receive took would stay invisible', async () => {
    const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('stop-wait'), { visibilityTimeoutSeconds: 30 });
    const poller = startQueuePoller({ sqs, queueUrl, handler: async () => undefined, waitTimeSeconds: 3 });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const stopMs = await timed(() => poller.stop());

    expect(stopMs).toBeGreaterThanOrEqual(1500);
  });

  it('receives a message at once during a long poll', async () => {
    const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('stop-wake'), { visibilityTimeoutSeconds: 30 });
    let received: () => void = () => undefined;
    const delivered = new Promise<void>((resolve) => (received = resolve));
    const poller = startQueuePoller({ sqs, queueUrl, handler: async () => received(), waitTimeSeconds: 20, abortReceiveOnStop: true });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const deliveryMs = await timed(async () => {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'wake up' }));
      await delivered;
    });
    await poller.stop();

    expect(deliveryMs).toBeLessThan(SHORT_OF_THE_POLL_MS);
  }, 60_000);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The OCR queues on the SQS emulator, the adapter that sends jobs to them, and what the adapter sent. */
async function ocrQueues(visibilityTimeoutSeconds = 30) {
  const { sqs } = testClients();
  const sent: SendMessageCommandInput[] = [];
  sqs.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'SendMessageCommand') sent.push(args.input as SendMessageCommandInput);
      return next(args);
    },
    { step: 'initialize', name: 'recordSentMessages' },
  );
  const normal = await ensureQueueWithDlq(sqs, uniqueName('fair'), { visibilityTimeoutSeconds });
  const high = await ensureQueueWithDlq(sqs, uniqueName('fair-high'), { visibilityTimeoutSeconds });
  const jobs = new SqsOcrJobQueue(sqs, { normal: normal.queueUrl, high: high.queueUrl });
  const enqueue = (workspaceId: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, () =>
        jobs.forWorkspace(workspaceId).enqueue({ documentId: crypto.randomUUID(), run: 1, priority: 'normal' }),
      ),
    );
  return { sqs, queueUrl: normal.queueUrl, enqueue, sent };
}

/**
 * A worker that takes `ms` per job and records, per job, its workspace and receive count as it starts and ends.
 * With `held`, each job waits for it to settle before it takes its time.
 */
function recordingWorker(ms: number, held: Promise<void> = Promise.resolve()) {
  const started: { workspace: string; receiveCount: string }[] = [];
  const finished: string[] = [];
  const handler = async (event: SQSEvent) => {
    for (const record of event.Records) {
      const workspace = (JSON.parse(record.body) as OcrQueueMessageBody).workspace_id;
      started.push({ workspace, receiveCount: record.attributes.ApproximateReceiveCount });
      await held;
      await sleep(ms);
      finished.push(workspace);
    }
  };
  return { handler, started, finished };
}

describe('OCR jobs taking turns by workspace on the SQS emulator', () => {
  it("starts another workspace's job queued behind 20 of one workspace before half of those 20 are done, with two workers", async () => {
    // The first jobs are held until the other workspace's job is queued, so that the backlog it meets is the
    // same however fast this machine works through it.
    const { sqs, queueUrl, enqueue } = await ocrQueues();
    let release!: () => void;
    const worker = recordingWorker(150, new Promise<void>((resolve) => (release = resolve)));
    const [busy, quiet] = [crypto.randomUUID(), crypto.randomUUID()];
    const poller = startQueuePoller({ sqs, queueUrl, handler: worker.handler, batchSize: 1, concurrency: 2, ...LOCAL_OCR_POLLING });

    await enqueue(busy, 20);
    await until(() => worker.started.length > 0);
    await enqueue(quiet, 1);
    release();
    await until(() => worker.finished.length === 21);
    await poller.stop();

    const quietStart = worker.started.findIndex((job) => job.workspace === quiet);
    const busyDoneBefore = worker.finished.slice(0, worker.finished.indexOf(quiet)).filter((workspace) => workspace === busy).length;
    expect(quietStart).toBeGreaterThan(0);
    expect(busyDoneBefore).toBeLessThan(10);
    expect(worker.started.filter((job) => job.workspace === busy)).toHaveLength(20);
  }, 60_000);

  it('alternates the workspaces whose jobs are waiting, each in the order its jobs were queued', async () => {
    const { sqs, queueUrl, enqueue } = await ocrQueues();
    const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await enqueue(a, 4);
    await enqueue(b, 2);
    await enqueue(c, 1);
    const worker = recordingWorker(20);
    const poller = startQueuePoller({ sqs, queueUrl, handler: worker.handler, batchSize: 1, concurrency: 1, ...LOCAL_OCR_POLLING });

    await until(() => worker.finished.length === 7);
    await poller.stop();

    expect(worker.started.map((job) => job.workspace)).toEqual([a, b, c, a, b, a, a]);
  }, 30_000);

  it('keeps a message received ahead invisible while it waits longer than the queue visibility timeout, and delivers it once', async () => {
    // The fourth message waits 4.5 s behind the others, beyond the 3 s timeout; each call keeps 1.5 s of slack
    // within it, so a loaded machine delays no call past its own timeout.
    const { sqs, queueUrl, enqueue } = await ocrQueues(3);
    const workspace = crypto.randomUUID();
    await enqueue(workspace, 4);
    const worker = recordingWorker(1500);

    const poller = startQueuePoller({ sqs, queueUrl, handler: worker.handler, batchSize: 1, concurrency: 1, ...LOCAL_OCR_POLLING });
    await until(() => worker.finished.length === 4, 30_000);
    await sleep(3500);
    await poller.stop();

    expect(worker.started).toHaveLength(4);
    expect(worker.started.map((job) => job.receiveCount)).toEqual(['1', '1', '1', '1']);
  }, 45_000);

  it('makes the messages received ahead visible again when it stops', async () => {
    const { sqs, queueUrl, enqueue } = await ocrQueues(600);
    await enqueue(crypto.randomUUID(), 5);
    const worker = recordingWorker(1000);
    const poller = startQueuePoller({ sqs, queueUrl, handler: worker.handler, batchSize: 1, concurrency: 1, ...LOCAL_OCR_POLLING });
    await until(() => worker.started.length === 1);

    await poller.stop();
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));

    expect(Messages).toHaveLength(4);
  }, 30_000);

  it('sends each OCR job with its workspace as the message group, which makes the SQS queue a fair queue', async () => {
    const { enqueue, sent } = await ocrQueues();
    const workspace = crypto.randomUUID();

    await enqueue(workspace, 1);

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ MessageGroupId: workspace });
    expect(JSON.parse(sent[0]!.MessageBody!)).toMatchObject({ workspace_id: workspace });
  });

  it('puts messages without a workspace in one line of their own', async () => {
    const { sqs, queueUrl } = await ocrQueues();
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'not json' }));
    const seen: string[] = [];

    const poller = startQueuePoller({
      sqs,
      queueUrl,
      handler: async (event) => void seen.push(...event.Records.map((record) => LOCAL_OCR_POLLING.tenantOf(record))),
      ...LOCAL_OCR_POLLING,
    });
    await until(() => seen.length === 1);
    await poller.stop();

    expect(seen).toEqual(['']);
  });
});
