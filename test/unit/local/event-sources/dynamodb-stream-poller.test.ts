import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { startStreamPoller, type StreamPoller } from '../../../../shared/local/event-sources/dynamodb-stream-poller';
import { until } from '../../../support/until';

/**
 * Shard lineage exists only in the cloud (DynamoDB Local keeps one shard per table), so these tests play the
 * streams API: a stream of shards, each with its records, a parent and whether it is closed.
 */
interface FakeShard {
  id: string;
  parent?: string;
  closed: boolean;
  keys: string[];
}

const STREAM_ARN = 'arn:aws:dynamodb:us-east-1:123456789012:table/t/stream/2026-01-01T00:00:00.000';

/** A fake streams API over `shards` (which the test may add to later); `log` says what happened, in order. */
function fakeStream(shards: FakeShard[], pageSize = 1) {
  const log: string[] = [];
  const client = new DynamoDBStreamsClient({ region: 'us-east-1' });
  const mock = mockClient(client);
  let sequence = 0;
  const sequences = new Map<string, string>();
  const recordOf = (key: string): _Record => {
    if (!sequences.has(key)) sequences.set(key, String(++sequence).padStart(21, '0'));
    return {
      eventID: key,
      eventName: 'INSERT',
      dynamodb: { Keys: { pk: { S: key } }, NewImage: { pk: { S: key } }, SequenceNumber: sequences.get(key), StreamViewType: 'NEW_AND_OLD_IMAGES' },
    };
  };
  mock.on(DescribeStreamCommand).callsFake((input: { ExclusiveStartShardId?: string }) => {
    const from = input.ExclusiveStartShardId ? shards.findIndex((shard) => shard.id === input.ExclusiveStartShardId) + 1 : 0;
    const page = shards.slice(from, from + pageSize);
    return {
      StreamDescription: {
        StreamArn: STREAM_ARN,
        Shards: page.map((shard) => ({
          ShardId: shard.id,
          ParentShardId: shard.parent,
          SequenceNumberRange: { StartingSequenceNumber: '1', ...(shard.closed ? { EndingSequenceNumber: '99' } : {}) },
        })),
        LastEvaluatedShardId: from + pageSize < shards.length ? page.at(-1)!.id : undefined,
      },
    };
  });
  mock.on(GetShardIteratorCommand).callsFake((input: { ShardId: string; ShardIteratorType: string }) => {
    log.push(`iterator ${input.ShardId} ${input.ShardIteratorType}`);
    const shard = shards.find((candidate) => candidate.id === input.ShardId)!;
    return { ShardIterator: `${input.ShardId}|${input.ShardIteratorType === 'LATEST' ? shard.keys.length : 0}` };
  });
  mock.on(GetRecordsCommand).callsFake((input: { ShardIterator: string; Limit: number }) => {
    const [id, at] = input.ShardIterator.split('|') as [string, string];
    const shard = shards.find((candidate) => candidate.id === id)!;
    const keys = shard.keys.slice(Number(at), Number(at) + input.Limit);
    const next = Number(at) + keys.length;
    return { Records: keys.map(recordOf), NextShardIterator: shard.closed && next === shard.keys.length ? undefined : `${id}|${next}` };
  });
  return { client, log };
}

const pollers: StreamPoller[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

function consume(client: DynamoDBStreamsClient, log: string[], options: { startingPosition?: 'TRIM_HORIZON' | 'LATEST' } = {}) {
  const delivered: string[] = [];
  const handler = (event: DynamoDBStreamEvent) => {
    for (const record of event.Records) {
      delivered.push(record.eventID!);
      log.push(`delivered ${record.eventID}`);
    }
    return Promise.resolve();
  };
  pollers.push(
    startStreamPoller({ streams: client, source: { streamArn: STREAM_ARN }, handler, pollIntervalMs: 10, shardDiscoveryIntervalMs: 50, batchSize: 1, ...options }),
  );
  return delivered;
}

describe('the DynamoDB stream poller across shards', () => {
  it('reads a child shard only once its closed parent shard is done', async () => {
    const { client, log } = fakeStream([
      { id: 'child', parent: 'parent', closed: false, keys: ['c1'] },
      { id: 'parent', closed: true, keys: ['p1', 'p2'] },
    ]);

    const delivered = consume(client, log);
    await until(() => delivered.length === 3);

    expect(delivered).toEqual(['p1', 'p2', 'c1']);
    expect(log.indexOf('iterator child TRIM_HORIZON')).toBeGreaterThan(log.indexOf('delivered p2'));
  });

  it('pages through DescribeStream, reading the shards of every page', async () => {
    const { client, log } = fakeStream(
      [
        { id: 'a', closed: false, keys: ['a1'] },
        { id: 'b', closed: false, keys: ['b1'] },
        { id: 'c', closed: false, keys: ['c1'] },
      ],
      1,
    );

    const delivered = consume(client, log);
    await until(() => delivered.length === 3);

    expect([...delivered].sort()).toEqual(['a1', 'b1', 'c1']);
  });

  it('reads a shard that appears after start from its beginning, even when starting at LATEST', async () => {
    const shards: FakeShard[] = [{ id: 'old', closed: false, keys: ['before start'] }];
    const { client, log } = fakeStream(shards);
    const delivered = consume(client, log, { startingPosition: 'LATEST' });
    await until(() => log.includes('iterator old LATEST'));

    shards[0]!.closed = true;
    shards.push({ id: 'new', parent: 'old', closed: false, keys: ['n1', 'n2'] });
    await until(() => delivered.length === 2);

    expect(delivered).toEqual(['n1', 'n2']);
    expect(log).toContain('iterator new TRIM_HORIZON');
  });
});
