import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/zod';
import { httpHandler } from '../../../shared/http/pipeline';
import { json } from '../../../shared/http/responses';
import { route } from '../../../shared/http/route';
import { currentLogContext, recordLogContext, requestIdMessageAttributes, withLogContext, type LogContext } from '../../../shared/observability/log-context';
import { sqsJsonHandler } from '../../../shared/queue/sqs-batch';
import { httpEvent, lambdaTestContext } from '../../support/http-events';

const record = (messageId: string, body: string, requestId?: string): SQSRecord => ({
  messageId,
  receiptHandle: `handle-${messageId}`,
  body,
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: requestId ? { request_id: { stringValue: requestId, dataType: 'String', stringListValues: [], binaryListValues: [] } } : {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
  awsRegion: 'us-east-1',
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the request id in the log context of a request', () => {
  const handler = httpHandler({
    corsOrigins: [],
    routes: [
      route({
        key: 'GET /api/slow',
        access: 'public',
        query: z.strictObject({ wait: z.coerce.number() }),
        handle: async ({ query }) => {
          await pause(query.wait);
          return json(200, { in_context: currentLogContext()['request_id'] });
        },
      }),
    ],
  });

  it('is the id the response names, for everything the route calls', async () => {
    // Arrange
    const event = httpEvent('GET /api/slow', { query: { wait: '0' } });

    // Act
    const response = await handler(event, lambdaTestContext);

    // Assert
    expect(JSON.parse(response.body!).in_context).toBe(event.requestContext.requestId);
    expect(response.headers?.['x-request-id']).toBe(event.requestContext.requestId);
  });

  it('stays each request own while requests are served at once in one process', async () => {
    // Arrange
    const first = httpEvent('GET /api/slow', { query: { wait: '30' } });
    const second = httpEvent('GET /api/slow', { query: { wait: '0' } });

    // Act
    const responses = await Promise.all([handler(first, lambdaTestContext), handler(second, lambdaTestContext)]);

    // Assert
    expect(responses.map((response) => JSON.parse(response.body!).in_context)).toEqual([first.requestContext.requestId, second.requestContext.requestId]);
  });

  it('is gone once the request is answered', async () => {
    // Arrange
    const event = httpEvent('GET /api/slow', { query: { wait: '0' } });

    // Act
    await handler(event, lambdaTestContext);

    // Assert
    expect(currentLogContext()).toEqual({});
  });
});

describe('the request id on SQS messages', () => {
  it('is a message attribute of a message sent within a request', () => {
    // Act
    const attributes = withLogContext({ request_id: 'req-1' }, () => requestIdMessageAttributes());

    // Assert
    expect(attributes).toEqual({ request_id: { DataType: 'String', StringValue: 'req-1' } });
  });

  it('is left out of a message sent outside any request', () => {
    // Act
    const attributes = requestIdMessageAttributes();

    // Assert
    expect(attributes).toBeUndefined();
  });

  it('is the context of each record the batch handler processes, with its message id', async () => {
    // Arrange
    const seen = new Map<number, LogContext>();
    const handler = sqsJsonHandler('test', z.object({ n: z.number() }), async (body) => {
      await pause(body.n === 1 ? 20 : 0);
      seen.set(body.n, currentLogContext());
    });

    // Act
    await handler({ Records: [record('m-1', '{"n":1}', 'req-a'), record('m-2', '{"n":2}', 'req-b'), record('m-3', '{"n":3}')] });

    // Assert
    expect(seen.get(1)).toEqual({ message_id: 'm-1', request_id: 'req-a' });
    expect(seen.get(2)).toEqual({ message_id: 'm-2', request_id: 'req-b' });
    expect(seen.get(3)).toEqual({ message_id: 'm-3' });
  });

  it('is read from a record as Lambda delivers it', () => {
    // Act
    const context = recordLogContext(record('m-9', '{}', 'req-9'));

    // Assert
    expect(context).toEqual({ message_id: 'm-9', request_id: 'req-9' });
  });
});
