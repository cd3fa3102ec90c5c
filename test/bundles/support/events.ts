import { ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, EventBridgeEvent, SQSEvent } from 'aws-lambda';
import { inject } from 'vitest';
import { createSqsClient } from '../../../shared/adapters/aws/sqs/client';
import { localClientOptions } from '../../../shared/local/local-clients';
import { EDGE_HEADERS } from '../../../shared/manifest';

/** A request as API Gateway's HTTP API hands it to the route's integration (payload format 2.0). */
export interface HttpRequest {
  token?: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** JSON, sent as text. */
  json?: unknown;
  /** A multipart form, sent base64-encoded as API Gateway sends binary bodies. */
  form?: FormData;
  /** Sent to the gateway directly, not through the CloudFront edge: without the edge's headers. */
  aroundEdge?: boolean;
}

/** The payload 2.0 event of `routeKey` (e.g. `GET /api/documents/{id}`). */
export async function httpEvent(routeKey: string, request: HttpRequest = {}): Promise<APIGatewayProxyEventV2> {
  const [method, template] = routeKey.split(' ') as [string, string];
  const rawPath = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.pathParameters?.[name] ?? ''));
  // As the edge forwards a request: with its origin token and the client's address.
  const edgeHeaders: Record<string, string> = request.aroundEdge
    ? {}
    : { [EDGE_HEADERS.originToken]: inject('bundles').edgeOriginToken, [EDGE_HEADERS.viewerAddress]: '198.51.100.23' };
  const headers: Record<string, string> = { 'user-agent': 'bundles-test', ...edgeHeaders, ...request.headers };
  if (request.token) headers['authorization'] = `Bearer ${request.token}`;
  let body: string | undefined;
  let isBase64Encoded = false;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    const encoded = new Request('http://localhost/', { method: 'POST', body: request.form });
    headers['content-type'] = encoded.headers.get('content-type')!;
    body = Buffer.from(await encoded.arrayBuffer()).toString('base64');
    isBase64Encoded = true;
  }
  const requestId = `bundles-${Math.random().toString(36).slice(2)}`;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: new URLSearchParams(request.query ?? {}).toString(),
    headers,
    ...(request.query ? { queryStringParameters: request.query } : {}),
    ...(request.pathParameters ? { pathParameters: request.pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'bundles',
      domainName: 'bundles.execute-api.us-east-1.amazonaws.com',
      domainPrefix: 'bundles',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'bundles-test' },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded,
  };
}

/** A function's answer to an HTTP event, with the body parsed when it is JSON. */
export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads what it expects
  json: any;
}

export function answer(result: unknown): HttpAnswer {
  const structured = result as APIGatewayProxyStructuredResultV2;
  const headers = Object.fromEntries(Object.entries(structured.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));
  const body = structured.body ?? '';
  const isJson = (headers['content-type'] ?? '').includes('json') && !structured.isBase64Encoded;
  return { statusCode: structured.statusCode ?? 200, headers, body, isBase64Encoded: Boolean(structured.isBase64Encoded), json: isJson && body ? JSON.parse(body) : undefined };
}

const sqs = () => createSqsClient(localClientOptions(inject('bundles').endpoints.sqs));

/**
 * Receives from a queue as the function's event source mapping does (up to its batch size, every system
 * attribute) and shapes the batch as the SQS event Lambda passes. Waits up to `waitSeconds` for a first message.
 */
export async function receiveBatch(queueLogicalId: string, batchSize: number, waitSeconds = 5): Promise<{ event: SQSEvent; messages: Message[] }> {
  const queue = inject('bundles').queues[queueLogicalId];
  if (!queue) throw new Error(`no queue ${queueLogicalId}`);
  const { Messages = [] } = await sqs().send(
    new ReceiveMessageCommand({
      QueueUrl: queue.url,
      MaxNumberOfMessages: batchSize,
      WaitTimeSeconds: waitSeconds,
      MessageSystemAttributeNames: ['All'],
      MessageAttributeNames: ['All'],
    }),
  );
  return {
    messages: Messages,
    event: {
      Records: Messages.map((message) => ({
        messageId: message.MessageId!,
        receiptHandle: message.ReceiptHandle!,
        body: message.Body ?? '',
        attributes: {
          ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
          SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
          SenderId: message.Attributes?.SenderId ?? '000000000000',
          ApproximateFirstReceiveTimestamp: message.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: message.MD5OfBody ?? '',
        eventSource: 'aws:sqs',
        eventSourceARN: queue.arn,
        awsRegion: 'us-east-1',
      })),
    },
  };
}

/** The event an EventBridge schedule rule sends its target. */
export const scheduledEvent = (): EventBridgeEvent<'Scheduled Event', Record<string, never>> => ({
  version: '0',
  id: crypto.randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: new Date().toISOString(),
  region: 'us-east-1',
  resources: ['arn:aws:events:us-east-1:000000000000:rule/OcrSweepSchedule'],
  detail: {},
});
