import { randomBytes } from 'node:crypto';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { traceOutgoingHttp } from '../../../../shared/adapters/otel/http-tracing';
import { withMessageTrace } from '../../../../shared/adapters/otel/message-tracing';
import { OtelTracing } from '../../../../shared/adapters/otel/otel-tracing';
import { traceSdkClient } from '../../../../shared/adapters/otel/sdk-client-tracing';
import { contextOfTraceHeader } from '../../../../shared/adapters/otel/trace-header';
import { localClientOptions } from '../../../../shared/local/local-clients';
import { freshTable, uniqueName } from '../../../support/aws-resources';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../../support/otlp-receiver';

/*
 * The functions' OpenTelemetry tracing, against an OTLP/HTTP receiver standing where the ADOT collector listens
 * in Lambda, DynamoDB Local, the SQS emulator and HTTP servers on loopback: what each invocation and each call it
 * makes exports, how a trace goes on through a queue message, and what is exported for nothing.
 */

const newRoot = () => `1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
/** The OpenTelemetry trace id of an X-Ray root (`1-<8 hex>-<24 hex>`). */
const traceIdOf = (root: string) => root.slice(2).replace('-', '');
const LAMBDA_SEGMENT = '53995c3f42cd8ad8';
const sampledHeader = (root: string) => `Root=${root};Parent=${LAMBDA_SEGMENT};Sampled=1`;
const CLIENT = 3;
const CONSUMER = 5;
const ERROR = 2;

let receiver: OtlpReceiver;
/** The trace header the runtime would give the invocation under way. */
let header: string | undefined;
let tracing: OtelTracing;
let tableName: string;
let dynamo: DynamoDBDocumentClient;
let sqs: SQSClient;
let queueUrl: string;
let probe: Server;
let probeUrl: string;
let probeHeaders: IncomingHttpHeaders[];

const tracingFor = () =>
  new OtelTracing({ exporter: { otlpUrl: receiver.tracesUrl }, service: 'docservice-test', sampleRoots: false, traceHeader: () => header });
const ofTrace = (root: string) => (span: ReceivedSpan) => span.traceId === traceIdOf(root);
const named = (root: string, name: string) => (span: ReceivedSpan) => span.traceId === traceIdOf(root) && span.name === name;

/** Runs `work` as one sampled invocation of `using` under a trace of its own; answers the trace's root. */
async function invocation(work: () => Promise<unknown>, using: OtelTracing = tracing, root = newRoot()): Promise<string> {
  header = sampledHeader(root);
  const trace = await using.startInvocation({ awsRequestId: 'request-1' });
  try {
    await trace.run(work);
  } catch (error) {
    trace.fail(error);
  } finally {
    await trace.end();
  }
  return root;
}

/** A message received from the emulator as Lambda's SQS event source gives it to the function. */
const asRecord = (message: Message): SQSRecord =>
  ({
    messageId: message.MessageId!,
    body: message.Body!,
    attributes: { ApproximateReceiveCount: '1' },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [name, { dataType: value.DataType!, stringValue: value.StringValue }]),
    ),
  }) as unknown as SQSRecord;

async function receiveOne(): Promise<Message> {
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MessageAttributeNames: ['All'], WaitTimeSeconds: 1 }));
  expect(Messages).toHaveLength(1);
  return Messages[0]!;
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = tracingFor();
  traceOutgoingHttp(tracing);
  const table = await freshTable();
  tableName = table.tableName;
  const endpoints = inject('awsEndpoints');
  dynamo = DynamoDBDocumentClient.from(traceSdkClient(new DynamoDBClient(localClientOptions(endpoints.dynamodb)), tracing));
  sqs = traceSdkClient(new SQSClient(localClientOptions(endpoints.sqs)), tracing);
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('traced') }))).QueueUrl!;
  probeHeaders = [];
  probe = createServer((request, response) => {
    probeHeaders.push(request.headers);
    if (request.headers['x-amz-target']) {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'probe-request' }).end('{}');
      return;
    }
    response.writeHead(request.url?.startsWith('/missing') ? 404 : 200).end('ok');
  });
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await receiver.close();
  await new Promise((resolve) => probe.close(resolve));
});

describe('an invocation as OpenTelemetry exports it', () => {
  it('exports the invocation as a ## handler span whose parent is the segment Lambda opened, over OTLP/HTTP', async () => {
    // Act
    const root = await invocation(async () => undefined);

    // Assert
    const [handler] = await receiver.received(named(root, '## handler'));
    expect(handler).toMatchObject({ parentSpanId: LAMBDA_SEGMENT, attributes: { 'service.name': 'docservice-test', 'faas.invocation_id': 'request-1' } });
    expect(handler!.resource).toMatchObject({ 'service.name': 'docservice-test' });
    expect(handler!.attributes['aws.xray.annotations']).toEqual(['faas.coldstart', 'service.name']);
    expect(receiver.requests.at(-1)?.['content-type']).toBe('application/json');
  });

  it('marks the first invocation of a process as its cold start and the next as warm', async () => {
    // Arrange
    const fresh = tracingFor();

    // Act
    const first = await invocation(async () => undefined, fresh);
    const second = await invocation(async () => undefined, fresh);

    // Assert
    const [cold] = await receiver.received(named(first, '## handler'));
    const [warm] = await receiver.received(named(second, '## handler'));
    expect([cold!.attributes['faas.coldstart'], warm!.attributes['faas.coldstart']]).toEqual([true, false]);
  });

  it('exports nothing for an invocation that is not sampled, nor for its calls', async () => {
    // Arrange
    const unsampled = newRoot();
    header = `Root=${unsampled};Parent=${LAMBDA_SEGMENT};Sampled=0`;

    // Act
    const trace = await tracing.startInvocation();
    await trace.run(() => dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: 'nothing', sk: 'here' } })));
    await trace.end();
    const sampled = await invocation(async () => undefined);

    // Assert
    await receiver.received(named(sampled, '## handler'));
    expect(receiver.spans.filter(ofTrace(unsampled))).toEqual([]);
  });

  it("loads no SDK in a process whose invocations are not sampled: its spans are the API's non-recording ones", async () => {
    // Arrange
    const fresh = tracingFor();
    header = `Root=${newRoot()};Parent=${LAMBDA_SEGMENT};Sampled=0`;

    // Act
    const trace = await fresh.startInvocation();
    await trace.end();

    // Assert
    const probe = fresh.tracer.startSpan('probe', {}, contextOfTraceHeader(sampledHeader(newRoot())));
    expect(probe.isRecording()).toBe(false);
  });

  it("marks a failed invocation as an error with the error's type and message as an exception", async () => {
    // Act
    const root = await invocation(async () => {
      throw new TypeError('the handler broke');
    });

    // Assert
    const [handler] = await receiver.received(named(root, '## handler'));
    expect(handler!.statusCode).toBe(ERROR);
    expect(handler!.events).toEqual([{ name: 'exception', attributes: expect.objectContaining({ 'exception.type': 'TypeError', 'exception.message': 'the handler broke' }) }]);
  });
});

describe("an invocation's AWS calls as OpenTelemetry exports them", () => {
  it('records a DynamoDB call as a client span of the handler with its operation, table, region and status', async () => {
    // Act
    const root = await invocation(() => dynamo.send(new PutCommand({ TableName: tableName, Item: { pk: 'traced', sk: 'item' } })));

    // Assert
    const [handler] = await receiver.received(named(root, '## handler'));
    const [call] = await receiver.received(named(root, 'DynamoDB.PutItem'));
    expect(call).toMatchObject({
      kind: CLIENT,
      parentSpanId: handler!.spanId,
      statusCode: 0,
      attributes: {
        'rpc.system': 'aws-api',
        'rpc.service': 'DynamoDB',
        'rpc.method': 'PutItem',
        'aws.dynamodb.table_names': [tableName],
        'cloud.region': 'us-east-1',
        'aws.retries': 0,
        'http.response.status_code': 200,
      },
    });
  });

  it("records a refused DynamoDB call as an error with the service's exception", async () => {
    // Act
    const root = await invocation(() => dynamo.send(new GetCommand({ TableName: 'no-such-table', Key: { pk: 'a', sk: 'b' } })));

    // Assert
    const [call] = await receiver.received(named(root, 'DynamoDB.GetItem'));
    expect(call).toMatchObject({ statusCode: ERROR, attributes: { 'http.response.status_code': 400 } });
    expect(call!.events[0]?.attributes).toMatchObject({ 'exception.type': 'ResourceNotFoundException' });
  });

  it("passes the call's span to the service in X-Amzn-Trace-Id, and records the call once", async () => {
    // Arrange
    const client = DynamoDBDocumentClient.from(traceSdkClient(new DynamoDBClient(localClientOptions(probeUrl)), tracing));
    probeHeaders.length = 0;

    // Act
    const root = await invocation(() => client.send(new GetCommand({ TableName: 'probed', Key: { pk: 'a', sk: 'b' } })));

    // Assert
    const [call] = await receiver.received(named(root, 'DynamoDB.GetItem'));
    expect(probeHeaders.map((headers) => headers['x-amzn-trace-id'])).toEqual([`Root=${root};Parent=${call!.spanId};Sampled=1`]);
    expect(call!.attributes['aws.request_id']).toBe('probe-request');
    await receiver.received(named(root, '## handler'));
    expect(receiver.spans.filter(ofTrace(root)).map((span) => span.name).sort()).toEqual(['## handler', 'DynamoDB.GetItem']);
  });

  it('leaves a call made between invocations untraced', async () => {
    // Arrange
    header = undefined;
    const before = receiver.spans.length;

    // Act
    await dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: 'between', sk: 'invocations' } }));
    const root = await invocation(async () => undefined);

    // Assert
    await receiver.received(named(root, '## handler'));
    expect(receiver.spans.slice(before).map((span) => span.traceId)).toEqual([traceIdOf(root)]);
  });
});

describe("an invocation's HTTP calls as OpenTelemetry exports them", () => {
  const httpGet = (url: string) =>
    new Promise<number | undefined>((resolve) => {
      get(url, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      }).on('error', () => resolve(undefined));
    });

  it('records a call of the http client as a client span, its URL without the query', async () => {
    // Act
    const root = await invocation(() => httpGet(`${probeUrl}/dav/folder/?token=secret`));

    // Assert
    const [call] = await receiver.received(named(root, 'GET'));
    expect(call).toMatchObject({ kind: CLIENT, attributes: { 'url.full': `${probeUrl}/dav/folder/`, 'server.address': '127.0.0.1', 'http.response.status_code': 200 } });
    expect(JSON.stringify(call)).not.toContain('secret');
  });

  it('records a call that could not connect as an error', async () => {
    // Arrange
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    // Act
    const root = await invocation(() => httpGet(`http://127.0.0.1:${port}/`));

    // Assert
    const [call] = await receiver.received(named(root, 'GET'));
    expect(call!.statusCode).toBe(ERROR);
    expect(call!.events[0]?.attributes['exception.message']).toContain('ECONNREFUSED');
  });

  it('records a fetch answered 404 as a client span marked as an error', async () => {
    // Act
    const root = await invocation(async () => (await fetch(`${probeUrl}/missing?code=secret`)).text());

    // Assert
    const [call] = await receiver.received(named(root, 'GET'));
    expect(call).toMatchObject({ statusCode: ERROR, attributes: { 'url.full': `${probeUrl}/missing`, 'http.response.status_code': 404 } });
  });

  it('leaves the exports themselves untraced', async () => {
    // Act
    const root = await invocation(async () => undefined);
    await invocation(async () => undefined);

    // Assert
    await receiver.received(named(root, '## handler'));
    expect(receiver.spans.filter((span) => String(span.attributes['url.full']).startsWith(receiver.tracesUrl))).toEqual([]);
  });
});

describe('a trace through an SQS message', () => {
  it("continues the sender's trace in the consumer: the message's process span is the child of the SendMessage call", async () => {
    // Arrange: the upload's invocation sends the job
    const upload = await invocation(() => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{"document_id":"d1"}' })));
    const [send] = await receiver.received(named(upload, 'SQS.SendMessage'));
    const record = asRecord(await receiveOne());

    // Act: the worker's invocation, in the trace Lambda opened for it, processes the message
    const worker = await invocation(() =>
      withMessageTrace(tracing, 'ocr-worker', record, () => dynamo.send(new PutCommand({ TableName: tableName, Item: { pk: 'ocr', sk: 'd1' } }))),
    );

    // Assert
    const [process] = await receiver.received(named(upload, 'ocr-worker process'));
    const [workerHandler] = await receiver.received(named(worker, '## handler'));
    const [write] = await receiver.received(named(upload, 'DynamoDB.PutItem'));
    expect(process).toMatchObject({ kind: CONSUMER, parentSpanId: send!.spanId, attributes: { 'messaging.message.id': record.messageId } });
    expect(process!.links).toEqual([{ traceId: traceIdOf(worker), spanId: workerHandler!.spanId }]);
    expect(write!.parentSpanId).toBe(process!.spanId);
  });

  it("carries a sender's decision not to sample to the consumer, which exports nothing either", async () => {
    // Arrange
    const unsampled = newRoot();
    header = `Root=${unsampled};Parent=${LAMBDA_SEGMENT};Sampled=0`;
    const sender = await tracing.startInvocation();
    await sender.run(() => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{"document_id":"d2"}' })));
    await sender.end();
    const record = asRecord(await receiveOne());

    // Act
    const worker = await invocation(() => withMessageTrace(tracing, 'ocr-worker', record, async () => undefined));

    // Assert
    await receiver.received(named(worker, '## handler'));
    expect(record.messageAttributes['trace_header']?.stringValue).toMatch(new RegExp(`^Root=${unsampled};Parent=[0-9a-f]{16};Sampled=0$`, 'u'));
    expect(receiver.spans.filter(ofTrace(unsampled))).toEqual([]);
  });
});

describe('the Lambda entry of a function', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  async function tracedModules(root: string) {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'docservice-traced');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', receiver.tracesUrl);
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'docservice');
    vi.stubEnv('_X_AMZN_TRACE_ID', sampledHeader(root));
    vi.resetModules();
    const { lambdaEntry } = await import('../../../../shared/adapters/powertools/lambda-handler');
    const { sqsBatchHandler } = await import('../../../../shared/queue/sqs-batch');
    return { lambdaEntry, sqsBatchHandler };
  }
  const context = { awsRequestId: 'request-1', functionName: 'docservice-traced' } as Parameters<
    ReturnType<Awaited<ReturnType<typeof tracedModules>>['lambdaEntry']>
  >[1];

  it('exports the handler span of the invocation, a child of the segment Lambda opened, with the service', async () => {
    // Arrange
    const root = newRoot();
    const { lambdaEntry } = await tracedModules(root);

    // Act
    const answer = await lambdaEntry(async () => 'done')({}, context);

    // Assert
    const [handler] = await receiver.received(named(root, '## handler'));
    expect(answer).toBe('done');
    expect(handler).toMatchObject({ parentSpanId: LAMBDA_SEGMENT, attributes: { 'faas.coldstart': true, 'service.name': 'docservice' } });
  });

  it("rethrows the handler's error once the span records it", async () => {
    // Arrange
    const root = newRoot();
    const { lambdaEntry } = await tracedModules(root);

    // Act
    const outcome = lambdaEntry(async () => {
      throw new RangeError('out of range');
    })({}, context);

    // Assert
    await expect(outcome).rejects.toThrow('out of range');
    const [handler] = await receiver.received(named(root, '## handler'));
    expect(handler!.statusCode).toBe(ERROR);
    expect(handler!.events[0]?.attributes).toMatchObject({ 'exception.type': 'RangeError' });
  });

  it("processes each record of an SQS batch in a span of its sender's trace", async () => {
    // Arrange
    const upload = await invocation(() => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{"document_id":"d3"}' })));
    const record = asRecord(await receiveOne());
    const [send] = await receiver.received(named(upload, 'SQS.SendMessage'));
    const { lambdaEntry, sqsBatchHandler } = await tracedModules(newRoot());

    // Act
    const answer = await lambdaEntry(sqsBatchHandler('ocr-worker', async () => undefined))({ Records: [record] }, context);

    // Assert
    const [process] = await receiver.received(named(upload, 'ocr-worker process'));
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(process!.parentSpanId).toBe(send!.spanId);
  });
});

describe('traces in the local runtime', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints a request and the calls it makes on the console, as one trace, when OTEL_TRACES_EXPORTER=console', async () => {
    // Arrange
    const printed: { traceId: string; parentSpanContext?: { spanId: string }; id: string; name: string }[] = [];
    vi.spyOn(console, 'dir').mockImplementation((span) => void printed.push(span as (typeof printed)[number]));
    const local = new OtelTracing({ exporter: 'console', service: 'docservice', sampleRoots: true });
    await local.ready();
    const client = DynamoDBDocumentClient.from(traceSdkClient(new DynamoDBClient(localClientOptions(inject('awsEndpoints').dynamodb)), local));

    // Act
    await local.inRootSpan('GET /api/documents', () => client.send(new GetCommand({ TableName: tableName, Key: { pk: 'local', sk: 'request' } })));

    // Assert
    const [call, request] = printed;
    expect(printed.map((span) => span.name)).toEqual(['DynamoDB.GetItem', 'GET /api/documents']);
    expect(call!.traceId).toBe(request!.traceId);
    expect(call!.parentSpanContext?.spanId).toBe(request!.id);
  });
});
