import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/zod';
import { sqsJsonHandler } from '../../../shared/queue/sqs-batch';

const record = (messageId: string, body: string): SQSRecord => ({
  messageId,
  receiptHandle: `handle-${messageId}`,
  body,
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
  awsRegion: 'us-east-1',
});

const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('sqsJsonHandler', () => {
  const schema = z.object({ n: z.number() });

  it('hands each well-formed message to the processor', async () => {
    const seen: number[] = [];
    const handler = sqsJsonHandler('test', schema, async (body) => {
      seen.push(body.n);
    });

    const response = await handler(event(record('a', '{"n":1}'), record('b', '{"n":2}')));

    expect(seen.sort()).toEqual([1, 2]);
    expect(response).toEqual({ batchItemFailures: [] });
  });

  it('drops a message that is not JSON or not of the shape, without a retry', async () => {
    let calls = 0;
    const handler = sqsJsonHandler('test', schema, async () => {
      calls++;
    });

    const response = await handler(event(record('a', 'not json'), record('b', '{"n":"one"}')));

    expect(calls).toBe(0);
    expect(response).toEqual({ batchItemFailures: [] });
  });

  it('reports only the messages whose processing failed', async () => {
    const handler = sqsJsonHandler('test', schema, async (body) => {
      if (body.n === 2) throw new Error('transient');
    });

    const response = await handler(event(record('a', '{"n":1}'), record('b', '{"n":2}')));

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
  });
});
