import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../observability/logger';
import type { ClientOptions } from '../../adapters/aws/clients';
import { InMemoryStreamCheckpointStore, type StreamCheckpointStore } from './dynamodb-stream-checkpoints';
import { deliverBatch, sequenceOf, toLambdaRecord, type DeliveryOptions, type StreamFailureDestination } from './dynamodb-stream-delivery';

export type { StreamCheckpointStore } from './dynamodb-stream-checkpoints';
export type { StreamFailureDestination, StreamFailureRecord } from './dynamodb-stream-delivery';

/** A client of a table's stream (the local runtime's, on DynamoDB Local; in the cloud Lambda reads the stream). */
export const createStreamsClient = (options: ClientOptions): DynamoDBStreamsClient => new DynamoDBStreamsClient(options);

/** How the local poller drives a handler from a table's stream, as a Lambda event source mapping would. */
export interface StreamPollerOptions {
  streams: DynamoDBStreamsClient;
  /** The stream: its ARN, or the table whose latest stream it is (looked up with DescribeTable). */
  source: { streamArn: string } | { tableName: string; dynamodb: DynamoDBDocumentClient };
  /** The same handler the cloud wires to the stream's event source mapping. */
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** Names the consumer in logs and in the failure record's function ARN. @default 'stream-consumer' */
  functionName?: string;
  /** Records per handler call at most. @default 100 */
  batchSize?: number;
  /** How long a batch short of `batchSize` waits for more records before it is delivered. @default 0 */
  maximumBatchingWindowMs?: number;
  /** Retries of a failing batch (or part of one) before it goes to `onFailure`; -1 retries for ever. @default 3 */
  maximumRetryAttempts?: number;
  /** Splits a failing batch in two to isolate a bad record; a split costs no retry. @default true */
  bisectBatchOnFunctionError?: boolean;
  /** Wait before retry `attempt` (1, 2, ...) of a failing batch. @default attempt => min(200 * 2 ** (attempt - 1), 10000) */
  retryDelayMs?: (attempt: number) => number;
  /** Where records go after their retries (see {@link StreamFailureDestination}). @default none: logged and skipped */
  onFailure?: StreamFailureDestination;
  /**
   * Where a shard with no checkpoint is first read from, for the shards found at start; shards that appear
   * later are read from their beginning, as Lambda does. With LATEST, records written before the shard's first
   * iterator (the first moments after start) are not delivered, and a shard with no checkpoint yet starts at
   * LATEST again after a restart, skipping what was written meanwhile: with a store that persists, use
   * TRIM_HORIZON. @default 'TRIM_HORIZON'
   */
  startingPosition?: 'TRIM_HORIZON' | 'LATEST';
  /** Per shard, the last record done; reading resumes after it. @default in memory */
  checkpoints?: StreamCheckpointStore;
  /**
   * Wait between reads of a shard that had nothing new (Lambda polls four times a second); {@link StreamPoller.wake}
   * cuts it short. @default 250
   */
  pollIntervalMs?: number;
  /** Wait between DescribeStream calls that look for new shards (also called when a shard closes). @default 5000 */
  shardDiscoveryIntervalMs?: number;
}

export interface StreamPoller {
  /**
   * Reads every shard waiting for records now instead of at its next poll: for a runtime that knows when it has
   * written the table (the local one), so it can poll seldom and still deliver within milliseconds.
   */
  wake(): void;
  /** Stops reading, waits for the handler calls in flight and keeps their checkpoints. */
  stop(): Promise<void>;
}

interface ShardState {
  shardId: string;
  parentShardId: string | undefined;
  /** Has an ending sequence number: no record will be added. */
  closed: boolean;
  /** Where reading starts without a checkpoint. */
  initial: 'TRIM_HORIZON' | 'LATEST';
  status: 'waiting' | 'reading' | 'done';
}

/**
 * Polls a DynamoDB stream (DynamoDB Local's streams API locally) and hands batches to a handler with the
 * semantics of Lambda's event source mapping: shards are found with DescribeStream (again every
 * `shardDiscoveryIntervalMs` and whenever a shard closes), a child shard is read only once its parent is done,
 * each shard has one batch in flight and delivers its records in order, and a closed shard ends once read.
 * Batches, retries, bisection and the failure destination are {@link deliverBatch}'s. The last record done in
 * each shard is checkpointed, and reading resumes after it, also when an iterator expires.
 */
export function startStreamPoller(options: StreamPollerOptions): StreamPoller {
  const { streams } = options;
  const batchSize = options.batchSize ?? 100;
  const batchingWindowMs = options.maximumBatchingWindowMs ?? 0;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const discoveryIntervalMs = options.shardDiscoveryIntervalMs ?? 5000;
  const checkpoints = options.checkpoints ?? new InMemoryStreamCheckpointStore();
  const delivery: DeliveryOptions = {
    handler: options.handler,
    maximumRetryAttempts: options.maximumRetryAttempts ?? 3,
    bisectBatchOnFunctionError: options.bisectBatchOnFunctionError ?? true,
    retryDelayMs: options.retryDelayMs ?? ((attempt) => Math.min(200 * 2 ** (attempt - 1), 10_000)),
    onFailure: options.onFailure,
    functionName: options.functionName ?? 'stream-consumer',
  };

  let stopped = false;
  const wakers = new Set<() => void>();
  /** Waits `ms`, or less when stop (or `wake`) comes. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });
  let wakeDiscovery: (() => void) | undefined;
  /** The shards' waits for new records, which `wake` ends (retry waits keep their backoff). */
  const idle = new Set<() => void>();
  /** Counts wakes: a shard whose last read began before the latest wake reads again without waiting. */
  let wakes = 0;
  const poll = async (ms: number, readAfterWake: number): Promise<void> => {
    if (readAfterWake < wakes) return;
    let waking: (() => void) | undefined;
    await Promise.race([sleep(ms), new Promise<void>((resolve) => idle.add((waking = resolve)))]);
    idle.delete(waking!);
  };

  const shards = new Map<string, ShardState>();
  const workers = new Set<Promise<void>>();

  /** Starts a worker for each waiting shard whose parent is done (or gone from the stream). */
  const schedule = (streamArn: string): void => {
    for (const shard of shards.values()) {
      if (stopped || shard.status !== 'waiting') continue;
      const parent = shard.parentShardId === undefined ? undefined : shards.get(shard.parentShardId);
      if (parent && parent.status !== 'done') continue;
      shard.status = 'reading';
      const worker = readShard(streamArn, shard)
        .then(
          (finished) => {
            shard.status = finished ? 'done' : 'waiting';
          },
          (error: unknown) => {
            shard.status = 'waiting';
            logger.error('stream poller: reading a shard failed, it will be read again from its checkpoint', { shard_id: shard.shardId, error });
          },
        )
        .finally(() => {
          workers.delete(worker);
          if (shard.status === 'done') {
            schedule(streamArn);
            wakeDiscovery?.();
          }
        });
      workers.add(worker);
    }
  };

  /** An iterator for the shard at `type` (after or at `sequenceNumber`); undefined once stopped or the shard is gone. */
  const iteratorFor = async (streamArn: string, shardId: string, type: ShardIteratorType, sequenceNumber?: string): Promise<string | undefined> => {
    while (!stopped) {
      try {
        const { ShardIterator } = await streams.send(
          new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequenceNumber }),
        );
        return ShardIterator;
      } catch (error) {
        if (error instanceof ResourceNotFoundException) return undefined;
        if (error instanceof TrimmedDataAccessException) {
          // The checkpoint is older than the stream keeps (24 hours): what lay between is gone; reconciliation repairs it.
          logger.warn('stream poller: records after the checkpoint were trimmed, reading from the oldest kept', { shard_id: shardId, error });
          type = 'TRIM_HORIZON';
          sequenceNumber = undefined;
          continue;
        }
        logger.warn('stream poller: could not get a shard iterator, retrying', { shard_id: shardId, error });
        await sleep(1000);
      }
    }
    return undefined;
  };

  /** Reads and delivers one shard; true once it is closed and every record is done, false when stopped. */
  const readShard = async (streamArn: string, shard: ShardState): Promise<boolean> => {
    const { shardId } = shard;
    let checkpoint = await checkpoints.get(shardId);
    if (checkpoint === undefined && shard.initial === 'LATEST' && shard.closed) return true;
    const position = (pending: DynamoDBRecord[]) =>
      checkpoint !== undefined
        ? iteratorFor(streamArn, shardId, 'AFTER_SEQUENCE_NUMBER', checkpoint)
        : pending[0]
          ? iteratorFor(streamArn, shardId, 'AT_SEQUENCE_NUMBER', sequenceOf(pending[0]))
          : iteratorFor(streamArn, shardId, shard.initial);
    let iterator = await position([]);
    const target = {
      streamArn,
      shardId,
      stopped: () => stopped,
      sleep,
      checkpoint: async (sequenceNumber: string) => {
        checkpoint = sequenceNumber;
        // A lost write costs a redelivery after a restart, which the consumers are built to absorb.
        await checkpoints.put(shardId, sequenceNumber).catch((error: unknown) => logger.warn('stream poller: could not keep a checkpoint', { shard_id: shardId, error }));
      },
    };
    /** The wake count when the read that drained the shard began (null: the last read filled its batch). */
    let drainedAfterWake: number | null = null;
    while (!stopped && iterator !== undefined) {
      // A drained shard is read again after the next wake (or the idle interval), not at once: a read then finds
      // nothing unless a write came meanwhile, and every write of this process wakes the poller.
      if (drainedAfterWake !== null) await poll(pollIntervalMs, drainedAfterWake);
      if (stopped) return false;
      drainedAfterWake = null;
      let batch: DynamoDBRecord[] = [];
      let firstAt = 0;
      while (!stopped && iterator !== undefined && batch.length < batchSize) {
        const wanted = Math.min(1000, batchSize - batch.length);
        const readAfterWake = wakes;
        let records;
        try {
          const response = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: wanted }));
          records = (response.Records ?? []).map((record) => toLambdaRecord(record, streamArn));
          iterator = response.NextShardIterator;
        } catch (error) {
          if (error instanceof ExpiredIteratorException) {
            iterator = await position(batch);
            batch = [];
            continue;
          }
          if (error instanceof ResourceNotFoundException) {
            logger.warn('stream poller: the shard is gone', { shard_id: shardId, error });
            iterator = undefined;
            break;
          }
          // Read again from the checkpoint, in case the iterator itself was what failed.
          logger.warn('stream poller: reading records failed, retrying', { shard_id: shardId, error });
          await sleep(1000);
          iterator = await position(batch);
          batch = [];
          continue;
        }
        if (records.length > 0 && batch.length === 0) firstAt = Date.now();
        batch.push(...records);
        if (records.length === wanted) continue;
        const windowLeft = firstAt + batchingWindowMs - Date.now();
        if (batch.length > 0 && windowLeft <= 0) {
          drainedAfterWake = readAfterWake;
          break;
        }
        if (iterator !== undefined) await (batch.length > 0 ? sleep(Math.min(pollIntervalMs, windowLeft)) : poll(pollIntervalMs, readAfterWake));
      }
      if (stopped) return false;
      if (batch.length > 0 && !(await deliverBatch(delivery, target, batch))) return false;
    }
    // A closed shard (no next iterator) is done once its last batch is; a stopped one is read again later.
    return !stopped;
  };

  const resolveStreamArn = async (): Promise<string> => {
    const { source } = options;
    if ('streamArn' in source) return source.streamArn;
    const { Table } = await source.dynamodb.send(new DescribeTableCommand({ TableName: source.tableName }));
    if (!Table?.LatestStreamArn) throw new Error(`table ${source.tableName} has no stream`);
    return Table.LatestStreamArn;
  };

  const describeShards = async (streamArn: string): Promise<Shard[]> => {
    const found: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }));
      found.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    return found;
  };

  const discover = async (): Promise<void> => {
    let streamArn: string | undefined;
    let first = true;
    while (!stopped) {
      try {
        streamArn ??= await resolveStreamArn();
        for (const shard of await describeShards(streamArn)) {
          if (!shard.ShardId || shards.has(shard.ShardId)) continue;
          shards.set(shard.ShardId, {
            shardId: shard.ShardId,
            parentShardId: shard.ParentShardId,
            closed: shard.SequenceNumberRange?.EndingSequenceNumber !== undefined,
            initial: first ? (options.startingPosition ?? 'TRIM_HORIZON') : 'TRIM_HORIZON',
            status: 'waiting',
          });
        }
        first = false;
        schedule(streamArn);
      } catch (error) {
        if (stopped) return;
        logger.warn('stream poller: could not describe the stream, retrying', { stream: streamArn ?? describeSource(options.source), error });
      }
      await new Promise<void>((resolve) => {
        wakeDiscovery = resolve;
        void sleep(discoveryIntervalMs).then(resolve);
      });
    }
  };

  const discovering = discover();
  return {
    wake() {
      wakes++;
      for (const waking of [...idle]) waking();
    },
    async stop() {
      stopped = true;
      for (const wake of [...wakers]) wake();
      wakeDiscovery?.();
      await discovering;
      while (workers.size > 0) await Promise.allSettled([...workers]);
    },
  };
}

const describeSource = (source: StreamPollerOptions['source']): string =>
  'streamArn' in source ? source.streamArn : `the latest stream of table ${source.tableName}`;
