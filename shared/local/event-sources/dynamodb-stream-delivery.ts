import type { AttributeValue as SdkAttributeValue, _Record as SdkRecord } from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../observability/logger';

/**
 * The JSON document Lambda sends to an event source mapping's on-failure destination when it gives up on a
 * batch of a DynamoDB stream (the shape of AWS's "invocation record" for stream sources).
 */
export interface StreamFailureRecord {
  requestContext: { requestId: string; functionArn: string; condition: 'RetryAttemptsExhausted'; approximateInvokeCount: number };
  responseContext: { statusCode: number; executedVersion: string; functionError?: 'Unhandled' };
  version: '1.0';
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
}

/**
 * Where records the poller gives up on go: a callback, or an SQS queue (the DLQ the cloud's event source
 * mapping names), which receives the {@link StreamFailureRecord} as its message body, as in the cloud. The
 * callback also gets what the cloud only logs: the last error and the records themselves.
 */
export type StreamFailureDestination =
  | ((failure: StreamFailureRecord, details: { error: unknown; records: DynamoDBRecord[] }) => Promise<void>)
  | { sqs: SQSClient; queueUrl: string };

export interface DeliveryOptions {
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** Retries of a failing batch before it goes to the failure destination; -1 retries for ever. */
  maximumRetryAttempts: number;
  bisectBatchOnFunctionError: boolean;
  /** Wait before retry `attempt` (1, 2, ...) of a part. */
  retryDelayMs: (attempt: number) => number;
  onFailure: StreamFailureDestination | undefined;
  /** Named in the failure record's function ARN. */
  functionName: string;
}

/** What delivery needs from the shard it delivers for. */
export interface ShardDelivery {
  streamArn: string;
  shardId: string;
  stopped(): boolean;
  /** Waits, cut short by stop. */
  sleep(ms: number): Promise<void>;
  /** The shard is done up to and including this record. */
  checkpoint(sequenceNumber: string): Promise<void>;
}

/** A run of consecutive records still to deliver, and the failed calls it has had. */
interface Part {
  records: DynamoDBRecord[];
  attempts: number;
  /** The last failure: what the handler threw, or the records it reported failed. */
  error: unknown;
  /** Whether the last failure was a throw (the cloud's "Unhandled" function error) rather than a reported one. */
  threw: boolean;
}

/**
 * Delivers one batch of a shard as Lambda's event source mapping does: a call that resolves without
 * `batchItemFailures` completes the batch; one that names failed records completes the records before the
 * first of them (checkpointed) and retries from it. A part that fails from its first record (the handler
 * threw, named that record, or named an identifier of no record in the batch) is split in two when
 * `bisectBatchOnFunctionError` is on (a split costs no retry; the halves go in order), and otherwise retried.
 * A part that failed more than `maximumRetryAttempts` times goes to the failure destination and is
 * checkpointed past, so a poison record never blocks the shard. Retries wait `retryDelayMs(attempt)`.
 *
 * Returns false when stop came before the batch was done (what was done is checkpointed; the rest is read
 * again after a restart).
 */
export async function deliverBatch(options: DeliveryOptions, shard: ShardDelivery, records: DynamoDBRecord[]): Promise<boolean> {
  const parts: Part[] = [{ records, attempts: 0, error: undefined, threw: false }];
  while (parts.length > 0) {
    if (shard.stopped()) return false;
    const part = parts[0]!;
    const failedAt = await invoke(options, shard, part);
    if (failedAt === undefined) {
      await shard.checkpoint(sequenceOf(part.records.at(-1)!));
      parts.shift();
      continue;
    }
    if (failedAt > 0) {
      await shard.checkpoint(sequenceOf(part.records[failedAt - 1]!));
      part.records = part.records.slice(failedAt);
    } else if (options.bisectBatchOnFunctionError && part.records.length > 1) {
      const half = Math.ceil(part.records.length / 2);
      parts.splice(0, 1, { ...part, records: part.records.slice(0, half) }, { ...part, records: part.records.slice(half) });
      continue;
    }
    part.attempts++;
    if (options.maximumRetryAttempts >= 0 && part.attempts > options.maximumRetryAttempts) {
      if (!(await sendToFailureDestination(options, shard, part))) return false;
      await shard.checkpoint(sequenceOf(part.records.at(-1)!));
      parts.shift();
      continue;
    }
    await shard.sleep(options.retryDelayMs(part.attempts));
  }
  return true;
}

/** Calls the handler with the part; the index of the first record to retry, or undefined when all succeeded. */
async function invoke(options: DeliveryOptions, shard: ShardDelivery, part: Part): Promise<number | undefined> {
  let response: DynamoDBBatchResponse | void;
  try {
    response = await options.handler({ Records: part.records });
  } catch (error) {
    part.error = error;
    part.threw = true;
    logger.warn('stream poller: handler failed, the batch will be retried', { shard_id: shard.shardId, records: part.records.length, error });
    return 0;
  }
  const failures = response?.batchItemFailures ?? [];
  if (failures.length === 0) return undefined;
  // Lambda retries from the smallest sequence number named; an identifier of no record fails the whole batch.
  const indexes = failures.map((failure) => part.records.findIndex((record) => record.dynamodb?.SequenceNumber === failure.itemIdentifier));
  const failedAt = indexes.includes(-1) ? 0 : Math.min(...indexes);
  part.threw = false;
  part.error = new Error(`the handler reported ${failures.length} failed record(s), the first ${sequenceOf(part.records[failedAt]!)}`);
  return failedAt;
}

/** Sends a part given up on to the failure destination, retrying until it is taken or stop comes (false). */
async function sendToFailureDestination(options: DeliveryOptions, shard: ShardDelivery, part: Part): Promise<boolean> {
  const failure = failureRecord(options, shard, part);
  const batch = failure.DDBStreamBatchInfo;
  logger.error('stream poller: retries exhausted, the records go to the failure destination', {
    shard_id: batch.shardId,
    start_sequence_number: batch.startSequenceNumber,
    end_sequence_number: batch.endSequenceNumber,
    batch_size: batch.batchSize,
    stream_arn: batch.streamArn,
    error: part.error,
  });
  const destination = options.onFailure;
  if (!destination) return true;
  for (let attempt = 1; ; attempt++) {
    try {
      if (typeof destination === 'function') await destination(failure, { error: part.error, records: part.records });
      else await destination.sqs.send(new SendMessageCommand({ QueueUrl: destination.queueUrl, MessageBody: JSON.stringify(failure) }));
      return true;
    } catch (error) {
      logger.warn('stream poller: the failure destination did not take the records, retrying', { shard_id: shard.shardId, error });
      if (shard.stopped()) return false;
      await shard.sleep(Math.min(1000 * attempt, 10_000));
    }
  }
}

function failureRecord(options: DeliveryOptions, shard: ShardDelivery, part: Part): StreamFailureRecord {
  const region = shard.streamArn.split(':')[3] ?? 'local';
  const arrival = (record: DynamoDBRecord) => new Date((record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
  return {
    requestContext: {
      requestId: crypto.randomUUID(),
      functionArn: `arn:aws:lambda:${region}:000000000000:function:${options.functionName}`,
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: part.attempts,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', ...(part.threw ? { functionError: 'Unhandled' as const } : {}) },
    version: '1.0',
    timestamp: new Date().toISOString(),
    DDBStreamBatchInfo: {
      shardId: shard.shardId,
      startSequenceNumber: sequenceOf(part.records[0]!),
      endSequenceNumber: sequenceOf(part.records.at(-1)!),
      approximateArrivalOfFirstRecord: arrival(part.records[0]!),
      approximateArrivalOfLastRecord: arrival(part.records.at(-1)!),
      batchSize: part.records.length,
      streamArn: shard.streamArn,
    },
  };
}

export const sequenceOf = (record: DynamoDBRecord): string => record.dynamodb!.SequenceNumber!;

/** A record as the DynamoDB Streams API returns it, in the shape Lambda's event source gives it. */
export function toLambdaRecord(record: SdkRecord, eventSourceARN: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  const images = (image: Record<string, SdkAttributeValue> | undefined) =>
    image && Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource ?? 'aws:dynamodb',
    awsRegion: record.awsRegion,
    dynamodb: {
      // Lambda gives epoch seconds where the SDK gives a Date.
      ...(stream.ApproximateCreationDateTime ? { ApproximateCreationDateTime: Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000) } : {}),
      Keys: images(stream.Keys),
      ...(stream.NewImage ? { NewImage: images(stream.NewImage) } : {}),
      ...(stream.OldImage ? { OldImage: images(stream.OldImage) } : {}),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
    eventSourceARN,
    ...(record.userIdentity ? { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } } : {}),
  };
}

/**
 * Binary values travel as base64 in Lambda's JSON event; the SDK decodes them to bytes. The SDK also reads an
 * empty map (`{"M": {}}`, e.g. a document without metadata) as a value with no type at all: Lambda keeps it a map.
 */
function toLambdaValue(value: SdkAttributeValue): AttributeValue {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.M !== undefined) return { M: Object.fromEntries(Object.entries(value.M).map(([name, inner]) => [name, toLambdaValue(inner)])) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  return value as AttributeValue;
}
