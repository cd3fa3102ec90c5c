import { randomBytes } from 'node:crypto';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { localClientOptions } from '../../shared/container/local';
import { XRayDaemonClient } from '../../shared/adapters/xray/daemon-client';
import { traceOutgoingHttp } from '../../shared/adapters/xray/http-tracing';
import { traceSdkClient } from '../../shared/adapters/xray/sdk-client-tracing';
import type { SubsegmentDocument } from '../../shared/adapters/xray/subsegment';
import { XRayTracer } from '../../shared/adapters/xray/xray-tracer';
import { freshTable } from '../support/aws-resources';
import { startRecordingDaemon, type RecordingDaemon } from '../support/xray-daemon';

/*
 * The functions' X-Ray tracing, against a UDP listener standing where Lambda's daemon listens, DynamoDB Local,
 * and HTTP servers on loopback: what each invocation and each call it makes sends, and what it sends nothing for.
 */

const newRoot = () => `1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
const LAMBDA_SEGMENT = '53995c3f42cd8ad8';
const sampledHeader = (root: string) => `Root=${root};Parent=${LAMBDA_SEGMENT};Sampled=1`;

let daemon: RecordingDaemon;
/** The trace header the runtime would give the invocation under way. */
let header: string | undefined;
let tracer: XRayTracer;
let tableName: string;
let dynamo: DynamoDBDocumentClient;
let probe: Server;
let probeUrl: string;
let probeHeaders: IncomingHttpHeaders[];

const tracerFor = () => new XRayTracer({ daemon: new XRayDaemonClient({ host: '127.0.0.1', port: daemon.port }), service: 'docservice-test', traceHeader: () => header });
const ofTrace = (root: string) => (document: SubsegmentDocument) => document.trace_id === root;
const named = (root: string, name: string) => (document: SubsegmentDocument) => document.trace_id === root && document.name === name;

/** Runs `work` as one sampled invocation of `tracer` under a trace of its own; answers the trace's root. */
async function invocation(work: () => Promise<unknown>, using: XRayTracer = tracer): Promise<string> {
  const root = newRoot();
  header = sampledHeader(root);
  const trace = using.startInvocation();
  try {
    await work();
  } catch (error) {
    trace?.fail(error);
  } finally {
    await trace?.end();
  }
  return root;
}

beforeAll(async () => {
  daemon = await startRecordingDaemon();
  tracer = tracerFor();
  traceOutgoingHttp(tracer);
  const table = await freshTable();
  tableName = table.tableName;
  const endpoints = inject('awsEndpoints');
  dynamo = DynamoDBDocumentClient.from(traceSdkClient(new DynamoDBClient(localClientOptions(endpoints.dynamodb)), tracer));
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
  await daemon.close();
  await new Promise((resolve) => probe.close(resolve));
});

describe('an invocation as X-Ray sees it', () => {
  it('sends the invocation as a ## handler subsegment of the segment Lambda opened, in the daemon format', async () => {
    // Act
    const root = await invocation(async () => undefined);

    // Assert
    const [handler] = await daemon.received(named(root, '## handler'));
    expect(handler).toMatchObject({ type: 'subsegment', trace_id: root, parent_id: LAMBDA_SEGMENT, annotations: { Service: 'docservice-test' } });
    expect(handler!.end_time).toBeGreaterThanOrEqual(handler!.start_time);
    expect(new Set(daemon.headers)).toEqual(new Set(['{"format":"json","version":1}']));
  });

  it('annotates the first invocation of a process as its cold start and the next as warm', async () => {
    // Arrange
    const fresh = tracerFor();

    // Act
    const first = await invocation(async () => undefined, fresh);
    const second = await invocation(async () => undefined, fresh);

    // Assert
    const [cold] = await daemon.received(named(first, '## handler'));
    const [warm] = await daemon.received(named(second, '## handler'));
    expect([cold!.annotations?.['ColdStart'], warm!.annotations?.['ColdStart']]).toEqual([true, false]);
  });

  it('sends nothing for an invocation that is not sampled, nor for its calls', async () => {
    // Arrange
    const unsampled = newRoot();
    header = `Root=${unsampled};Parent=${LAMBDA_SEGMENT};Sampled=0`;

    // Act
    const trace = tracer.startInvocation();
    await dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: 'nothing', sk: 'here' } }));
    await trace?.end();
    const sampled = await invocation(async () => undefined);

    // Assert
    await daemon.received(named(sampled, '## handler'));
    expect(trace).toBeUndefined();
    expect(daemon.documents.filter(ofTrace(unsampled))).toEqual([]);
  });

  it("marks a failed invocation as a fault with the error's type and message as its cause", async () => {
    // Act
    const root = await invocation(async () => {
      throw new TypeError('the handler broke');
    });

    // Assert
    const [handler] = await daemon.received(named(root, '## handler'));
    expect(handler).toMatchObject({ fault: true, cause: { exceptions: [{ type: 'TypeError', message: 'the handler broke' }] } });
  });
});

describe("an invocation's AWS calls as X-Ray sees them", () => {
  it('records a DynamoDB call as an aws subsegment of the handler with its operation, table, region and status', async () => {
    // Act
    const root = await invocation(() => dynamo.send(new PutCommand({ TableName: tableName, Item: { pk: 'traced', sk: 'item' } })));

    // Assert
    const [handler] = await daemon.received(named(root, '## handler'));
    const [call] = await daemon.received(named(root, 'DynamoDB'));
    expect(call).toMatchObject({
      namespace: 'aws',
      parent_id: handler!.id,
      aws: { operation: 'PutItem', table_name: tableName, region: 'us-east-1', retries: 0 },
      http: { response: { status: 200 } },
    });
    expect(call!.error ?? call!.fault).toBeUndefined();
  });

  it("records a refused DynamoDB call as an error with the service's exception as a remote cause", async () => {
    // Act
    const root = await invocation(() => dynamo.send(new GetCommand({ TableName: 'no-such-table', Key: { pk: 'a', sk: 'b' } })));

    // Assert
    const [call] = await daemon.received(named(root, 'DynamoDB'));
    expect(call).toMatchObject({
      error: true,
      http: { response: { status: 400 } },
      cause: { exceptions: [{ type: 'ResourceNotFoundException', remote: true }] },
    });
  });

  it("passes the call's subsegment to the service in X-Amzn-Trace-Id, and records the call once", async () => {
    // Arrange
    const client = DynamoDBDocumentClient.from(traceSdkClient(new DynamoDBClient(localClientOptions(probeUrl)), tracer));
    probeHeaders.length = 0;

    // Act
    const root = await invocation(() => client.send(new GetCommand({ TableName: 'probed', Key: { pk: 'a', sk: 'b' } })));

    // Assert
    const [call] = await daemon.received(named(root, 'DynamoDB'));
    expect(probeHeaders.map((headers) => headers['x-amzn-trace-id'])).toEqual([`Root=${root};Parent=${call!.id};Sampled=1`]);
    expect(call!.aws).toMatchObject({ request_id: 'probe-request' });
    await daemon.received(named(root, '## handler'));
    expect(daemon.documents.filter(ofTrace(root)).map((document) => document.name).sort()).toEqual(['## handler', 'DynamoDB']);
  });

  it('leaves a call made between invocations untraced', async () => {
    // Arrange
    header = undefined;
    const before = daemon.documents.length;

    // Act
    await dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: 'between', sk: 'invocations' } }));
    const root = await invocation(async () => undefined);

    // Assert
    await daemon.received(named(root, '## handler'));
    expect(daemon.documents.slice(before).map((document) => document.trace_id)).toEqual([root]);
  });
});

describe("an invocation's HTTP calls as X-Ray sees them", () => {
  const httpGet = (url: string) =>
    new Promise<number | undefined>((resolve) => {
      get(url, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      }).on('error', () => resolve(undefined));
    });

  it('records a call of the http client as a remote subsegment, its URL without the query', async () => {
    // Act
    const root = await invocation(() => httpGet(`${probeUrl}/dav/folder/?token=secret`));

    // Assert
    const [call] = await daemon.received(named(root, '127.0.0.1'));
    expect(call).toMatchObject({ namespace: 'remote', http: { request: { method: 'GET', url: `${probeUrl}/dav/folder/` }, response: { status: 200 } } });
    expect(JSON.stringify(call)).not.toContain('secret');
  });

  it('records a call that could not connect as a fault', async () => {
    // Arrange
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    // Act
    const root = await invocation(() => httpGet(`http://127.0.0.1:${port}/`));

    // Assert
    const [call] = await daemon.received(named(root, '127.0.0.1'));
    expect(call).toMatchObject({ fault: true, cause: { exceptions: [{ message: expect.stringContaining('ECONNREFUSED') }] } });
  });

  it('records a fetch answered 404 as a remote subsegment marked as an error', async () => {
    // Act
    const root = await invocation(async () => (await fetch(`${probeUrl}/missing?code=secret`)).text());

    // Assert
    const [call] = await daemon.received(named(root, '127.0.0.1'));
    expect(call).toMatchObject({ namespace: 'remote', error: true, http: { request: { method: 'GET', url: `${probeUrl}/missing` }, response: { status: 404 } } });
  });
});

describe('the Lambda entry of a function', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  async function tracedEntry(root: string) {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'docservice-traced');
    vi.stubEnv('AWS_XRAY_DAEMON_ADDRESS', daemon.address);
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'docservice');
    vi.stubEnv('_X_AMZN_TRACE_ID', sampledHeader(root));
    vi.resetModules();
    return (await import('../../shared/adapters/powertools/lambda-handler')).lambdaEntry;
  }
  const context = { awsRequestId: 'request-1', functionName: 'docservice-traced' } as Parameters<ReturnType<Awaited<ReturnType<typeof tracedEntry>>>>[1];

  it('sends the handler subsegment of the invocation, annotated with the service, by the time it answers', async () => {
    // Arrange
    const root = newRoot();
    const lambdaEntry = await tracedEntry(root);

    // Act
    const answer = await lambdaEntry(async () => 'done')({}, context);

    // Assert
    const [handler] = await daemon.received(named(root, '## handler'));
    expect(answer).toBe('done');
    expect(handler).toMatchObject({ parent_id: LAMBDA_SEGMENT, annotations: { ColdStart: true, Service: 'docservice' } });
  });

  it("rethrows the handler's error once the subsegment records it as a fault", async () => {
    // Arrange
    const root = newRoot();
    const lambdaEntry = await tracedEntry(root);

    // Act
    const outcome = lambdaEntry(async () => {
      throw new RangeError('out of range');
    })({}, context);

    // Assert
    await expect(outcome).rejects.toThrow('out of range');
    const [handler] = await daemon.received(named(root, '## handler'));
    expect(handler).toMatchObject({ fault: true, cause: { exceptions: [{ type: 'RangeError' }] } });
  });
});
