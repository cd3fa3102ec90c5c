import { ExpiredIteratorException } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { startStreamPoller, type StreamPoller, type StreamPollerOptions } from '../../../../shared/local/event-sources/dynamodb-stream-poller';
import { freshStreamTable } from '../../../support/stream-table';
import { until } from '../../../support/until';

/*
 * Reading ahead: the poller reads a shard's next batch while its handler works on the current one, and still
 * hands the handler one batch at a time, in order, each record once.
 */

const pollers: StreamPoller[] = [];
const start = (options: StreamPollerOptions): StreamPoller => {
  const poller = startStreamPoller({ pollIntervalMs: 20, shardDiscoveryIntervalMs: 200, retryDelayMs: () => 10, ...options });
  pollers.push(poller);
  return poller;
};
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

const pkOf = (record: DynamoDBRecord) => record.dynamodb?.NewImage?.['pk']?.S ?? '';

/** A handler whose first call waits for `release`; it keeps the keys of each call. */
function heldConsumer() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const calls: string[][] = [];
  let holding = false;
  const handler = async (event: DynamoDBStreamEvent) => {
    calls.push(event.Records.map(pkOf));
    if (calls.length === 1) {
      holding = true;
      await released;
      holding = false;
    }
  };
  return { handler, calls, release, holding: () => holding };
}

describe('the DynamoDB stream poller reading ahead on DynamoDB Local', () => {
  it('reads the next batch while the handler works on one, and hands it on right after, in order, each record once', async () => {
    // Arrange
    const table = await freshStreamTable();
    const readWhileHeld: string[] = [];
    const consumer = heldConsumer();
    table.streams.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const records = (result.output as { Records?: { dynamodb?: { NewImage?: { pk?: { S?: string } } } }[] }).Records ?? [];
        if (context.commandName === 'GetRecordsCommand' && consumer.holding()) readWhileHeld.push(...records.map((record) => record.dynamodb?.NewImage?.pk?.S ?? ''));
        return result;
      },
      { step: 'initialize', name: 'recordReads' },
    );
    start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler });
    await table.put({ pk: 'a' });
    await until(() => consumer.holding());

    // Act
    await table.putAll([{ pk: 'b' }, { pk: 'c' }]);
    await until(() => readWhileHeld.length > 0);
    consumer.release();
    await until(() => consumer.calls.flat().length >= 3);

    // Assert
    expect(readWhileHeld[0]).toBe('b');
    expect(consumer.calls[0]).toEqual(['a']);
    expect(consumer.calls.flat()).toEqual(['a', 'b', 'c']);
  });

  it('reads on after the batch it handed on when its iterator expires during a delivery, delivering each record once', async () => {
    // Arrange
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
    const consumer = heldConsumer();
    start({ streams: table.streams, source: { streamArn: table.streamArn }, handler: consumer.handler });
    await table.put({ pk: 'a' });
    await until(() => consumer.holding());

    // Act
    expireNext = true;
    await until(() => !expireNext);
    await table.put({ pk: 'b' });
    consumer.release();
    await until(() => consumer.calls.flat().includes('b'));

    // Assert
    expect(consumer.calls.flat()).toEqual(['a', 'b']);
  });
});
