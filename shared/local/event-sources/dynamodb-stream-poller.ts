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
  const poller = new DynamoStreamPoller(options);
  poller.start();
  return { wake: () => poller.wake(), stop: () => poller.stop() };
}

/**
 * Where the reading of one shard is: its iterator, the last record done (a restart resumes after it) and the
 * last record handed to delivery (a read that lost its iterator resumes after it).
 */
interface ShardRead {
  streamArn: string;
  shard: ShardState;
  checkpoint: string | undefined;
  readThrough?: string;
  iterator: string | undefined;
}

/** One poller's state: the shards found, their workers, and the waits that `wake` and `stop` cut short. */
class DynamoStreamPoller {
  private readonly streams: DynamoDBStreamsClient;
  private readonly batchSize: number;
  private readonly batchingWindowMs: number;
  private readonly pollIntervalMs: number;
  private readonly discoveryIntervalMs: number;
  private readonly checkpoints: StreamCheckpointStore;
  private readonly delivery: DeliveryOptions;
  private stopped = false;
  /** The pending sleeps, which stop ends. */
  private readonly wakers = new Set<() => void>();
  private wakeDiscovery: (() => void) | undefined;
  /** The shards' waits for new records, which `wake` ends (retry waits keep their backoff). */
  private readonly idle = new Set<() => void>();
  /** Counts wakes: a shard whose last read began before the latest wake reads again without waiting. */
  private wakes = 0;
  private readonly shards = new Map<string, ShardState>();
  private readonly workers = new Set<Promise<void>>();
  private discovering: Promise<void> = Promise.resolve();

  constructor(private readonly options: StreamPollerOptions) {
    this.streams = options.streams;
    this.batchSize = options.batchSize ?? 100;
    this.batchingWindowMs = options.maximumBatchingWindowMs ?? 0;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.discoveryIntervalMs = options.shardDiscoveryIntervalMs ?? 5000;
    this.checkpoints = options.checkpoints ?? new InMemoryStreamCheckpointStore();
    this.delivery = {
      handler: options.handler,
      maximumRetryAttempts: options.maximumRetryAttempts ?? 3,
      bisectBatchOnFunctionError: options.bisectBatchOnFunctionError ?? true,
      retryDelayMs: options.retryDelayMs ?? ((attempt) => Math.min(200 * 2 ** (attempt - 1), 10_000)),
      onFailure: options.onFailure,
      functionName: options.functionName ?? 'stream-consumer',
    };
  }

  start(): void {
    this.discovering = this.discover();
  }

  wake(): void {
    this.wakes++;
    for (const waking of [...this.idle]) waking();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of [...this.wakers]) wake();
    this.wakeDiscovery?.();
    await this.discovering;
    while (this.workers.size > 0) await Promise.allSettled([...this.workers]);
  }

  /** Waits `ms`, or less when stop comes. */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /**
   * Waits `ms` for new records, or less when stop, a wake or `until` comes; not at all when a wake came since
   * `readAfterWake`.
   */
  private async poll(ms: number, readAfterWake: number, until?: Promise<void>): Promise<void> {
    if (readAfterWake < this.wakes) return;
    let waking: (() => void) | undefined;
    await Promise.race([this.sleep(ms), new Promise<void>((resolve) => this.idle.add((waking = resolve))), ...(until ? [until] : [])]);
    this.idle.delete(waking!);
  }

  /** Starts a worker for each waiting shard whose parent is done (or gone from the stream). */
  private schedule(streamArn: string): void {
    for (const shard of this.shards.values()) {
      if (this.stopped || shard.status !== 'waiting') continue;
      const parent = shard.parentShardId === undefined ? undefined : this.shards.get(shard.parentShardId);
      if (parent && parent.status !== 'done') continue;
      shard.status = 'reading';
      const worker = this.readShard(streamArn, shard)
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
          this.workers.delete(worker);
          if (shard.status === 'done') {
            this.schedule(streamArn);
            this.wakeDiscovery?.();
          }
        });
      this.workers.add(worker);
    }
  }

  /** An iterator for the shard at `type` (after or at `sequenceNumber`); undefined once stopped or the shard is gone. */
  private async iteratorFor(streamArn: string, shardId: string, type: ShardIteratorType, sequenceNumber?: string): Promise<string | undefined> {
    while (!this.stopped) {
      try {
        const { ShardIterator } = await this.streams.send(
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
        await this.sleep(1000);
      }
    }
    return undefined;
  }

  /**
   * An iterator after the last record handed to delivery or else the checkpoint, else at the first record
   * `pending` (read, not yet handed on), else at the start.
   */
  private position(read: ShardRead, pending: DynamoDBRecord[]): Promise<string | undefined> {
    const { streamArn, shard } = read;
    const after = read.readThrough ?? read.checkpoint;
    if (after !== undefined) return this.iteratorFor(streamArn, shard.shardId, 'AFTER_SEQUENCE_NUMBER', after);
    if (pending[0]) return this.iteratorFor(streamArn, shard.shardId, 'AT_SEQUENCE_NUMBER', sequenceOf(pending[0]));
    return this.iteratorFor(streamArn, shard.shardId, shard.initial);
  }

  /** Reads and delivers one shard; true once it is closed and every record is done, false when stopped. */
  private async readShard(streamArn: string, shard: ShardState): Promise<boolean> {
    const { shardId } = shard;
    const read: ShardRead = { streamArn, shard, checkpoint: await this.checkpoints.get(shardId), iterator: undefined };
    if (read.checkpoint === undefined && shard.initial === 'LATEST' && shard.closed) return true;
    read.iterator = await this.position(read, []);
    const target = {
      streamArn,
      shardId,
      stopped: () => this.stopped,
      sleep: (ms: number) => this.sleep(ms),
      checkpoint: async (sequenceNumber: string) => {
        read.checkpoint = sequenceNumber;
        // A lost write costs a redelivery after a restart, which the consumers are built to absorb.
        await this.checkpoints
          .put(shardId, sequenceNumber)
          .catch((error: unknown) => logger.warn('stream poller: could not keep a checkpoint', { shard_id: shardId, error }));
      },
    };
    /**
     * Reads the next batch, after the last one handed on. A drained shard is read again after the next wake (or
     * the idle interval), not at once: a read then finds nothing unless a write came meanwhile, and every write
     * of this process wakes the poller.
     */
    const readNext = async (drainedAfterWake: number | null, delivered?: Promise<void>) => {
      if (drainedAfterWake !== null) await this.poll(this.pollIntervalMs, drainedAfterWake);
      if (this.stopped) return { batch: [], drainedAfterWake: null };
      const next = await this.readBatch(read, delivered);
      if (next.batch.length > 0) read.readThrough = sequenceOf(next.batch.at(-1)!);
      return next;
    };
    let next = await readNext(null);
    while (!this.stopped) {
      // The next batch is gathered while this one is delivered, and handed on as soon as this one is done
      // (batches are still delivered one at a time, in order, and delivery never goes back before the batch it
      // was given): in a burst, a batch waits for no read of its own.
      let done!: () => void;
      const delivered = new Promise<void>((resolve) => (done = resolve));
      const reading = read.iterator !== undefined ? readNext(next.drainedAfterWake, delivered) : undefined;
      const ok = next.batch.length === 0 || (await deliverBatch(this.delivery, target, next.batch));
      done();
      if (!ok) {
        await reading;
        return false;
      }
      if (!reading) break;
      next = await reading;
    }
    // A closed shard (no next iterator) is done once its last batch is; a stopped one is read again later.
    return !this.stopped;
  }

  /**
   * Reads the shard's next batch: up to `batchSize` records, waiting up to the batching window for more once the
   * first came (and, until `delivered`, while the batch before is delivered), and for new records while there
   * are none. With the wake count when the read that drained the shard began (null when the batch filled or the
   * shard ended).
   */
  private async readBatch(read: ShardRead, delivered?: Promise<void>): Promise<{ batch: DynamoDBRecord[]; drainedAfterWake: number | null }> {
    const { streamArn, shard } = read;
    let batch: DynamoDBRecord[] = [];
    let firstAt = 0;
    let deliveryDone = delivered === undefined;
    void delivered?.then(() => (deliveryDone = true));
    while (!this.stopped && read.iterator !== undefined && batch.length < this.batchSize) {
      const wanted = Math.min(1000, this.batchSize - batch.length);
      const readAfterWake = this.wakes;
      let records;
      try {
        const response = await this.streams.send(new GetRecordsCommand({ ShardIterator: read.iterator, Limit: wanted }));
        records = (response.Records ?? []).map((record) => toLambdaRecord(record, streamArn));
        read.iterator = response.NextShardIterator;
      } catch (error) {
        if (error instanceof ExpiredIteratorException) {
          read.iterator = await this.position(read, batch);
          batch = [];
          continue;
        }
        if (error instanceof ResourceNotFoundException) {
          logger.warn('stream poller: the shard is gone', { shard_id: shard.shardId, error });
          read.iterator = undefined;
          break;
        }
        // Read again from the checkpoint, in case the iterator itself was what failed.
        logger.warn('stream poller: reading records failed, retrying', { shard_id: shard.shardId, error });
        await this.sleep(1000);
        read.iterator = await this.position(read, batch);
        batch = [];
        continue;
      }
      if (records.length > 0 && batch.length === 0) firstAt = Date.now();
      batch.push(...records);
      if (records.length === wanted) continue;
      const windowLeft = firstAt + this.batchingWindowMs - Date.now();
      if (batch.length > 0 && windowLeft <= 0) {
        if (deliveryDone) return { batch, drainedAfterWake: readAfterWake };
        // The batch before is still being delivered: records written meanwhile join this one.
        await this.poll(this.pollIntervalMs, readAfterWake, delivered);
        if (deliveryDone) return { batch, drainedAfterWake: readAfterWake };
        continue;
      }
      if (read.iterator !== undefined) {
        await (batch.length > 0 ? this.sleep(Math.min(this.pollIntervalMs, windowLeft)) : this.poll(this.pollIntervalMs, readAfterWake));
      }
    }
    return { batch, drainedAfterWake: null };
  }

  private async resolveStreamArn(): Promise<string> {
    const { source } = this.options;
    if ('streamArn' in source) return source.streamArn;
    const { Table } = await source.dynamodb.send(new DescribeTableCommand({ TableName: source.tableName }));
    if (!Table?.LatestStreamArn) throw new Error(`table ${source.tableName} has no stream`);
    return Table.LatestStreamArn;
  }

  private async describeShards(streamArn: string): Promise<Shard[]> {
    const found: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      found.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    return found;
  }

  /** Looks for new shards until stopped, every `shardDiscoveryIntervalMs` and whenever a shard is done. */
  private async discover(): Promise<void> {
    let streamArn: string | undefined;
    let first = true;
    while (!this.stopped) {
      try {
        streamArn ??= await this.resolveStreamArn();
        for (const shard of await this.describeShards(streamArn)) {
          if (!shard.ShardId || this.shards.has(shard.ShardId)) continue;
          this.shards.set(shard.ShardId, {
            shardId: shard.ShardId,
            parentShardId: shard.ParentShardId,
            closed: shard.SequenceNumberRange?.EndingSequenceNumber !== undefined,
            initial: first ? (this.options.startingPosition ?? 'TRIM_HORIZON') : 'TRIM_HORIZON',
            status: 'waiting',
          });
        }
        first = false;
        this.schedule(streamArn);
      } catch (error) {
        if (this.stopped) return;
        logger.warn('stream poller: could not describe the stream, retrying', { stream: streamArn ?? describeSource(this.options.source), error });
      }
      await new Promise<void>((resolve) => {
        this.wakeDiscovery = resolve;
        void this.sleep(this.discoveryIntervalMs).then(resolve);
      });
    }
  }
}

const describeSource = (source: StreamPollerOptions['source']): string =>
  'streamArn' in source ? source.streamArn : `the latest stream of table ${source.tableName}`;
