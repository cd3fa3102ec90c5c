import { DescribeStreamCommand, ExpiredIteratorException } from '@aws-sdk/client-dynamodb-streams';
import { CreateQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStreamCheckpointStore, InMemoryStreamCheckpointStore } from '../../../../shared/local/event-sources/dynamodb-stream-checkpoints';
import {
  startStreamPoller,
  type StreamFailureRecord,
  type StreamPoller,
  type StreamPollerOptions,
} from '../../../../shared/local/event-sources/dynamodb-stream-poller';
import { testClients, uniqueName } from '../../../support/aws-resources';
import { freshStreamTable } from '../../../support/stream-table';
import { until } from '../../../support/until';

/** Well under the 60 s poll interval of the wake tests, and patient with a loaded machine. */
const WOKEN_WITHIN_MS = 30_000;

/** Short intervals, so that a test waits milliseconds where the defaults wait seconds. */
const FAST = { pollIntervalMs: 20, shardDiscoveryIntervalMs: 200, retryDelayMs: () => 10 };

const pollers: StreamPoller[] = [];
const start = (options: StreamPollerOptions): StreamPoller => {
  const poller = startStreamPoller({ ...FAST, ...options });
  pollers.push(poller);
  return poller;
};
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

/** An image of a record as plain values (the test items hold only strings and numbers). */
const itemOf = (record: DynamoDBRecord, image: 'NewImage' | 'OldImage' = 'NewImage'): Record<string, string | number> =>
  Object.fromEntries(Object.entries(record.dynamodb?.[image] ?? {}).map(([name, value]) => [name, value.S ?? Number(value.N)]));
const pkOf = (record: DynamoDBRecord) => itemOf(record, record.eventName === 'REMOVE' ? 'OldImage' : 'NewImage')['pk'] as string;

/** A handler that keeps every record of every successful call, and the keys of each call (successful or not). */
function recorder(fail: (records: DynamoDBRecord[], call: number) => void = () => undefined) {
  const delivered: DynamoDBRecord[] = [];
  const calls: string[][] = [];
  const handler = (event: DynamoDBStreamEvent) => {
    calls.push(event.Records.map(pkOf));
    fail(event.Records, calls.length);
    delivered.push(...event.Records);
    return Promise.resolve();
  };
  return { handler, delivered, calls, keys: () => delivered.map(pkOf) };
}

describe('the DynamoDB stream poller on DynamoDB Local', () => {
  it('delivers the records of each item in order, with their old and new images', async () => {
    const table = await freshStreamTable();
    const consumer = recorder();
    start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler });

    await table.put({ pk: 'a', version: 1 });
    await table.put({ pk: 'b', version: 1 });
    await table.put({ pk: 'a', version: 2 });
    await table.put({ pk: 'a', version: 3 });
    await until(() => consumer.delivered.length === 4);

    const ofA = consumer.delivered.filter((record) => pkOf(record) === 'a');
    expect(ofA.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'MODIFY']);
    expect(ofA.map((record) => itemOf(record)['version'])).toEqual([1, 2, 3]);
    expect(ofA.map((record) => record.dynamodb?.OldImage && itemOf(record, 'OldImage')['version'])).toEqual([undefined, 1, 2]);
    expect(consumer.keys()).toEqual(['a', 'b', 'a', 'a']);
    expect(consumer.delivered[0]).toMatchObject({
      eventSource: 'aws:dynamodb',
      eventSourceARN: table.streamArn,
      dynamodb: { Keys: { pk: { S: 'a' } }, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('reads a shard at once when woken, instead of at its next poll', async () => {
    const table = await freshStreamTable();
    const consumer = recorder();
    const poller = start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler, pollIntervalMs: 60_000 });
    await table.put({ pk: 'first' });
    await until(() => consumer.delivered.length === 1, WOKEN_WITHIN_MS, 'the first record (read when the shard is first opened)');

    await table.put({ pk: 'woken' });
    poller.wake();

    await until(() => consumer.delivered.length === 2, WOKEN_WITHIN_MS, 'the record written before the wake, long before the next poll');
    expect(consumer.keys()).toEqual(['first', 'woken']);
  }, 90_000);

  it('reads a drained shard again only when woken or at its next poll, not right after delivering', async () => {
    const table = await freshStreamTable();
    let reads = 0;
    table.streams.middlewareStack.add((next, context) => (args) => {
      if (context.commandName === 'GetRecordsCommand') reads++;
      return next(args);
    }, { step: 'initialize' });
    const readsAtDelivery: number[] = [];
    const consumer = recorder(() => readsAtDelivery.push(reads));
    const poller = start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler, pollIntervalMs: 60_000 });
    await table.put({ pk: 'first' });
    await until(() => consumer.delivered.length === 1, WOKEN_WITHIN_MS, 'the first record');
    await new Promise((resolve) => setTimeout(resolve, 300));

    await table.put({ pk: 'woken' });
    poller.wake();
    await until(() => consumer.delivered.length === 2, WOKEN_WITHIN_MS, 'the record written before the wake');

    expect(readsAtDelivery[1]! - readsAtDelivery[0]!).toBe(1);
    expect(consumer.keys()).toEqual(['first', 'woken']);
  }, 90_000);

  it('gives a REMOVE event the old image of the deleted item and no new image', async () => {
    const table = await freshStreamTable();
    const consumer = recorder();
    start({ streams: table.streams, source: { tableName: table.tableName, dynamodb: table.db }, handler: consumer.handler });

    await table.put({ pk: 'gone', title: 'last words' });
    await table.remove('gone');
    await until(() => consumer.delivered.length === 2);

    const removal = consumer.delivered[1]!;
    expect(removal.eventName).toBe('REMOVE');
    expect(itemOf(removal, 'OldImage')).toEqual({ pk: 'gone', title: 'last words' });
    expect(removal.dynamodb?.NewImage).toBeUndefined();
  });

  it('hands the handler at most batchSize records per call, in order', async () => {
    const table = await freshStreamTable();
    await table.putAll(['1', '2', '3', '4', '5'].map((pk) => ({ pk })));
    const consumer = recorder();
    start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler, batchSize: 2 });

    await until(() => consumer.delivered.length === 5);

    expect(consumer.calls).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });

  it('gathers the records written within the batching window into one call', async () => {
    const table = await freshStreamTable();
    const consumer = recorder();
    start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler, maximumBatchingWindowMs: 800 });

    await table.putAll([{ pk: '1' }, { pk: '2' }, { pk: '3' }]);
    await until(() => consumer.delivered.length === 3);

    expect(consumer.calls).toEqual([['1', '2', '3']]);
  });

  it('retries a batch whose handler throws, and then delivers it whole', async () => {
    const table = await freshStreamTable();
    await table.putAll([{ pk: '1' }, { pk: '2' }, { pk: '3' }]);
    const consumer = recorder((_records, call) => {
      if (call === 1) throw new Error('the index is briefly unavailable');
    });
    start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler, bisectBatchOnFunctionError: false });

    await until(() => consumer.delivered.length === 3);

    expect(consumer.calls).toEqual([
      ['1', '2', '3'],
      ['1', '2', '3'],
    ]);
  });

  it('retries from the first record the handler reports failed, without redelivering those before it', async () => {
    const table = await freshStreamTable();
    await table.putAll([{ pk: '1' }, { pk: '2' }, { pk: '3' }, { pk: '4' }, { pk: '5' }]);
    const calls: string[][] = [];
    const handler = (event: DynamoDBStreamEvent) => {
      calls.push(event.Records.map(pkOf));
      // The first call fails records 3 and 5; the retry succeeds.
      const failed = calls.length === 1 ? event.Records.filter((record) => ['3', '5'].includes(pkOf(record))) : [];
      return Promise.resolve({ batchItemFailures: failed.map((record) => ({ itemIdentifier: record.dynamodb!.SequenceNumber! })) });
    };
    start({ streams: table.streams, source: { streamArn: table.streamArn }, handler });

    await until(() => calls.length === 2);

    expect(calls).toEqual([
      ['1', '2', '3', '4', '5'],
      ['3', '4', '5'],
    ]);
  });

  it('sends a batch that keeps failing to the failure queue after the retry limit, and delivers the records written after it', async () => {
    const table = await freshStreamTable();
    const { sqs } = testClients();
    const { QueueUrl: queueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('stream-dlq') }));
    await table.putAll([{ pk: 'fine' }, { pk: 'poison' }]);
    const consumer = recorder((records) => {
      if (records.some((record) => pkOf(record) === 'poison')) throw new Error('cannot index this item');
    });
    start({
      streams: table.streams,
      source: { streamArn: table.streamArn },
      handler: consumer.handler,
      bisectBatchOnFunctionError: false,
      maximumRetryAttempts: 2,
      onFailure: { sqs, queueUrl: queueUrl! },
    });

    await until(() => consumer.calls.length === 3);
    await table.put({ pk: 'later' });
    await until(() => consumer.delivered.length === 1);
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }));

    expect(consumer.calls).toEqual([['fine', 'poison'], ['fine', 'poison'], ['fine', 'poison'], ['later']]);
    expect(Messages).toHaveLength(1);
    const failure = JSON.parse(Messages[0]!.Body!) as StreamFailureRecord;
    expect(failure).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
      responseContext: { functionError: 'Unhandled' },
      version: '1.0',
      DDBStreamBatchInfo: { batchSize: 2, streamArn: table.streamArn, shardId: expect.stringMatching(/^shardId-/) as unknown },
    });
    expect(BigInt(failure.DDBStreamBatchInfo.startSequenceNumber)).toBeLessThan(BigInt(failure.DDBStreamBatchInfo.endSequenceNumber));
  });

  it('isolates a poison record by bisecting the batch, delivering the records before and after it', async () => {
    const table = await freshStreamTable();
    const keys = ['1', '2', '3', 'poison', '5', '6', '7'];
    await table.putAll(keys.map((pk) => ({ pk })));
    const consumer = recorder((records) => {
      if (records.some((record) => pkOf(record) === 'poison')) throw new Error('cannot index this item');
    });
    const failures: { failure: StreamFailureRecord; records: DynamoDBRecord[] }[] = [];
    start({
      streams: table.streams,
      source: { streamArn: table.streamArn },
      handler: consumer.handler,
      maximumRetryAttempts: 1,
      onFailure: (failure, { records }) => {
        failures.push({ failure, records });
        return Promise.resolve();
      },
    });

    await until(() => consumer.keys().includes('7'));

    expect(consumer.keys()).toEqual(['1', '2', '3', '5', '6', '7']);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.records.map(pkOf)).toEqual(['poison']);
    expect(failures[0]!.failure.DDBStreamBatchInfo).toMatchObject({
      batchSize: 1,
      startSequenceNumber: failures[0]!.records[0]!.dynamodb!.SequenceNumber,
      endSequenceNumber: failures[0]!.records[0]!.dynamodb!.SequenceNumber,
    });
  });

  it('resumes after the last processed record when restarted with the file checkpoint store', async () => {
    const table = await freshStreamTable();
    const directory = await mkdtemp(join(tmpdir(), 'stream-checkpoints-'));
    try {
      const before = recorder();
      const first = start({
        streams: table.streams,
        source: { streamArn: table.streamArn },
        handler: before.handler,
        checkpoints: new FileStreamCheckpointStore(directory, 'indexer'),
      });
      await table.putAll([{ pk: '1' }, { pk: '2' }, { pk: '3' }]);
      await until(() => before.delivered.length === 3);
      await first.stop();

      await table.putAll([{ pk: '4' }, { pk: '5' }]);
      const after = recorder();
      start({
        streams: table.streams,
        source: { streamArn: table.streamArn },
        handler: after.handler,
        checkpoints: new FileStreamCheckpointStore(directory, 'indexer'),
      });
      await until(() => after.delivered.length >= 2);

      // The shard delivers in order: had the restart re-read, 1 to 3 would have come before 4.
      expect(after.keys()).toEqual(['4', '5']);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('waits for the batch in flight when stopped, and keeps its checkpoint', async () => {
    const table = await freshStreamTable();
    await table.put({ pk: 'slow' });
    const checkpoints = new InMemoryStreamCheckpointStore();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started: DynamoDBRecord | undefined;
    let finished = false;
    const poller = start({
      streams: table.streams,
      source: { streamArn: table.streamArn },
      checkpoints,
      handler: async (event) => {
        started = event.Records[0];
        await released;
        finished = true;
      },
    });
    await until(() => started !== undefined);

    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    const stoppedBeforeRelease = stopped;
    release();
    await stopping;

    expect(stoppedBeforeRelease).toBe(false);
    expect(finished).toBe(true);
    const { StreamDescription } = await table.streams.send(new DescribeStreamCommand({ StreamArn: table.streamArn }));
    expect(await checkpoints.get(StreamDescription!.Shards![0]!.ShardId!)).toBe(started!.dynamodb!.SequenceNumber);
  });

  it('reads on after the checkpoint when its shard iterator expires, delivering each record once', async () => {
    const table = await freshStreamTable();
    let expireNext = false;
    table.streams.middlewareStack.add(
      (next, context) => (args) => {
        if (expireNext && context.commandName === 'GetRecordsCommand') {
          expireNext = false;
          throw new ExpiredIteratorException({ message: 'Iterator expired', $metadata: {} });
        }
        return next(args);
      },
      { step: 'initialize', name: 'expireOneIterator' },
    );
    const consumer = recorder();
    start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler });
    await table.putAll([{ pk: '1' }, { pk: '2' }]);
    await until(() => consumer.delivered.length === 2);

    expireNext = true;
    await until(() => !expireNext);
    await table.put({ pk: '3' });
    await until(() => consumer.delivered.length >= 3);

    expect(consumer.keys()).toEqual(['1', '2', '3']);
  });
});
