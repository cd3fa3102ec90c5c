import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { backOffWhenThrottled } from '../../../functions/ocr-worker/handler';
import { OcrEngineBusy } from '../../../shared/domain/ocr/ports';
import type { MessageRedelivery } from '../../../shared/queue/redelivery';

const record = (receiveCount: number): SQSRecord => ({
  messageId: 'm-1',
  receiptHandle: 'handle-1',
  body: '{}',
  attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:ocr',
  awsRegion: 'us-east-1',
});

/** Records what the worker asks of the queue. */
class RecordingRedelivery implements MessageRedelivery {
  readonly calls: { receiptHandle: string; seconds: number }[] = [];
  constructor(private readonly fails = false) {}
  async redeliverAfter(record: SQSRecord, seconds: number): Promise<void> {
    this.calls.push({ receiptHandle: record.receiptHandle, seconds });
    if (this.fails) throw new Error('SQS is down');
  }
}

const throttled = () => Promise.reject(new OcrEngineBusy('Textract is throttling'));

describe('the OCR worker on a throttled engine', () => {
  it('gives the message back after the delay for its receive count, and still reports it failed', async () => {
    const redelivery = new RecordingRedelivery();
    const work = backOffWhenThrottled({ redelivery, random: () => 0.999 }, throttled);

    const outcome = work({}, record(3)).catch((error: unknown) => error);

    expect(await outcome).toBeInstanceOf(OcrEngineBusy);
    expect(redelivery.calls).toEqual([{ receiptHandle: 'handle-1', seconds: 240 }]);
  });

  it('waits longer on each later delivery of the same message', async () => {
    const redelivery = new RecordingRedelivery();
    const work = backOffWhenThrottled({ redelivery, random: () => 0.999 }, throttled);

    for (const receiveCount of [1, 2, 3]) await work({}, record(receiveCount)).catch(() => undefined);

    expect(redelivery.calls.map((call) => call.seconds)).toEqual([60, 120, 240]);
  });

  it('leaves the visibility alone for any other failure: the queue timeout applies', async () => {
    const redelivery = new RecordingRedelivery();
    const work = backOffWhenThrottled({ redelivery }, () => Promise.reject(new Error('DynamoDB unavailable')));

    await expect(work({}, record(1))).rejects.toThrow('DynamoDB unavailable');
    expect(redelivery.calls).toEqual([]);
  });

  it('leaves the visibility alone when the job succeeds', async () => {
    const redelivery = new RecordingRedelivery();
    const work = backOffWhenThrottled({ redelivery }, () => Promise.resolve());

    await work({}, record(1));

    expect(redelivery.calls).toEqual([]);
  });

  it('still reports the throttled message failed when the visibility cannot be changed', async () => {
    const redelivery = new RecordingRedelivery(true);
    const work = backOffWhenThrottled({ redelivery }, throttled);

    await expect(work({}, record(1))).rejects.toBeInstanceOf(OcrEngineBusy);
    expect(redelivery.calls).toHaveLength(1);
  });

  it('without a redelivery (the local runtime) only reports the message failed', async () => {
    const work = backOffWhenThrottled({}, throttled);

    await expect(work({}, record(1))).rejects.toBeInstanceOf(OcrEngineBusy);
  });
});
