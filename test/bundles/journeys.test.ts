import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DeleteMessageBatchCommand } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDynamoDocumentClient } from '../../shared/adapters/aws/clients';
import { createSqsClient } from '../../shared/adapters/aws/sqs/client';
import { createStreamsClient, startStreamPoller } from '../../shared/local/event-sources/dynamodb-stream-poller';
import { accountStores, workspaceDirectory } from '../../shared/container/kit/accounts';
import { commonEnvSchema, parseEnv } from '../../shared/container/kit/config';
import { passwordHasher } from '../../shared/container/kit/serving';
import { systemClock } from '../../shared/domain/clock';
import { dynamoLegacyItems } from '../../shared/container/kit/legacy-data';
import { localClientOptions } from '../../shared/local/local-clients';
import { ensureAdmin } from '../../shared/domain/users/ensure-admin';
import { pdfDocument, pngSize } from '../support/fixtures';
import { LAMBDA_CHUNKS_DIR } from '../../lib/bundling/lambda-bundle';
import { until } from '../support/until';
import { startOtlpReceiver } from '../support/otlp-receiver';
import { answer, httpEvent, receiveBatch, scheduledEvent, type HttpAnswer, type HttpRequest } from './support/events';
import { DeployedFunction } from './support/lambda';
import { nativePackages } from './support/native';

/**
 * The functions as `cdk synth` bundles them (each asset's index.mjs and the files beside it), run as Lambda
 * runs them, one process per function with the stack's environment, and called with the events the stack
 * wires to them: API Gateway HTTP API payload 2.0, SQS batches from the emulated queues, the bucket's
 * object-created notification through the ingest queue, an EventBridge schedule. A bundling fault (a missing
 * .wasm or worker file, a dynamic require of something not bundled) fails here, not in a deployment. A native
 * addon shipped for the functions' arm64 runs here as this machine's build of the same version (support/native.ts).
 *
 * Not covered: OpenSearch cannot run here, so searching is checked only as a refused index call (the P error
 * body, the function still serving); Textract and Secrets Manager are not emulated (the PDF has a text layer,
 * and the JWT key comes from JWT_SECRET); WebSocket delivery (no connection is open).
 */

const functions = new Map<string, DeployedFunction>();
const deployed = (name: string): DeployedFunction => {
  let fn = functions.get(name);
  if (!fn) functions.set(name, (fn = DeployedFunction.named(name)));
  return fn;
};

const call = async (fn: DeployedFunction, routeKey: string, request?: HttpRequest): Promise<HttpAnswer> =>
  answer(await fn.invoke(await httpEvent(routeKey, request)));

/** Delivers what the queue holds to the function its event source mapping names, then deletes what succeeded. */
async function drain(functionName: string, queuePrefix: string): Promise<SQSBatchResponse> {
  const source = inject('bundles').functions.eventSources.find((s) => s.function === functionName && s.queue.startsWith(queuePrefix));
  if (!source) throw new Error(`${functionName} reads no queue ${queuePrefix}*`);
  const { event, messages } = await receiveBatch(source.queue, source.batchSize);
  expect(messages.length, `a message on ${source.queue}`).toBeGreaterThan(0);
  const response = ((await deployed(functionName).invoke(event)) ?? { batchItemFailures: [] }) as SQSBatchResponse;
  const failed = new Set(response.batchItemFailures.map((failure) => failure.itemIdentifier));
  const done = messages.filter((message) => !failed.has(message.MessageId!));
  if (done.length) {
    const bundles = inject('bundles');
    await createSqsClient(localClientOptions(bundles.endpoints.sqs)).send(
      new DeleteMessageBatchCommand({
        QueueUrl: bundles.queues[source.queue]!.url,
        Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
      }),
    );
  }
  return response;
}

const ADMIN = { username: 'bundle-admin', email: 'bundle-admin@example.com', password: 'bundle-admin-password' };
const PDF_TEXT = 'Quarterly invoice from the bundled deployment';

// A failure shows what the functions logged, as CloudWatch would.
afterEach(({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const fn of functions.values()) if (fn.logs) console.error(`--- ${fn.name} logs\n${fn.logs.slice(-6000)}`);
});

afterAll(async () => {
  await Promise.all([...functions.values()].map((fn) => fn.stop()));
});

describe('the bundled functions', () => {
  it('every function of the Api stack starts from its asset with the environment the stack gives it', async () => {
    const { byName } = inject('bundles').functions;
    const names = Object.keys(byName);
    expect(names).toEqual(expect.arrayContaining(['AuthFunction', 'DocumentsFunction', 'OcrWorkerFunction', 'IngestFunction', 'SearchFunction']));

    const started = await Promise.allSettled(names.map((name) => deployed(name).init()));

    const failures = started.flatMap((outcome, index) => (outcome.status === 'rejected' ? [`${names[index]}: ${String(outcome.reason)}`] : []));
    expect(failures).toEqual([]);
  }, 120_000); // eighteen cold starts at once, on two shared cores

  it('every native addon an asset ships is built for its function architecture', () => {
    const { byName } = inject('bundles').functions;

    const foreign = Object.entries(byName).flatMap(([name, fn]) =>
      nativePackages(fn.asset)
        .filter((native) => !native.name.includes(`-linux-${fn.architecture}-`))
        .map((native) => `${name} (${fn.architecture}): ${native.name}`),
    );

    expect(foreign).toEqual([]);
  });

  it('health answers 200 with the table, the bucket and the OCR queue reachable', async () => {
    const response = await call(deployed('HealthFunction'), 'GET /api/health');

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json.status).toBe('ok');
  });

  it('the labels bundle refuses a request sent to the gateway around the CloudFront edge', async () => {
    const response = await call(deployed('LabelsFunction'), 'GET /api/labels', { aroundEdge: true });

    expect(response.statusCode, response.body).toBe(403);
    expect(response.json.error.details).toEqual({ reason: 'not_through_edge' });
  });

  it('the health bundle exports its invocation and the AWS calls it made over OTLP when the trace is sampled', async () => {
    // Arrange
    const receiver = await startOtlpReceiver();
    const traced = DeployedFunction.named('HealthFunction', { environment: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl } });
    const root = '1-6745a1b2-0123456789abcdef01234567';
    const lambdaSegment = '53995c3f42cd8ad8';

    try {
      // Act
      const response = answer(await traced.invoke(await httpEvent('GET /api/health'), { traceHeader: `Root=${root};Parent=${lambdaSegment};Sampled=1` }));

      // Assert
      expect(response.statusCode, response.body).toBe(200);
      const [handler] = await receiver.received((span) => span.name === '## handler');
      expect(handler).toMatchObject({ traceId: root.slice(2).replace('-', ''), parentSpanId: lambdaSegment, attributes: { 'faas.coldstart': true } });
      const calls = await receiver.received((span) => span.attributes['rpc.system'] === 'aws-api', 3);
      expect(new Set(calls.map((call) => call.attributes['rpc.service']))).toEqual(new Set(['DynamoDB', 'S3', 'SQS']));
      expect(calls.every((call) => call.traceId === handler!.traceId && call.parentSpanId === handler!.spanId)).toBe(true);
    } finally {
      await traced.stop();
      await receiver.close();
    }
  });

  it('the sweeper runs on its EventBridge schedule and finds nothing stuck', async () => {
    const schedule = inject('bundles').functions.schedules.find((s) => s.function === 'OcrSweeperFunction');
    expect(schedule?.expression).toMatch(/^rate\(/);

    const result = await deployed('OcrSweeperFunction').invoke(scheduledEvent());

    expect(result).toEqual({ requeued: 0 });
  });

  it('the source scheduler runs on its EventBridge schedule and finds no source due', async () => {
    const schedule = inject('bundles').functions.schedules.find((s) => s.function === 'SourceSchedulerFunction');
    expect(schedule?.expression).toMatch(/^rate\(/);

    const result = await deployed('SourceSchedulerFunction').invoke(scheduledEvent());

    expect(result).toEqual({ started: 0, resumed: 0 });
  });
});

describe('a user journey through the bundles', () => {
  let viewerToken: string;
  let token: string;
  let labelId: string;
  let documentId: string;

  beforeAll(async () => {
    // The deploy-time bootstrap creates the admin from a Secrets Manager secret; here its use case does.
    const bundles = inject('bundles');
    const table = { db: createDynamoDocumentClient(localClientOptions(bundles.endpoints.dynamodb)), name: bundles.tableName };
    const env = parseEnv(commonEnvSchema, {});
    await ensureAdmin(
      {
        users: accountStores(table).users,
        workspaces: workspaceDirectory(table, env, systemClock).workspaces,
        passwords: passwordHasher(env),
        clock: systemClock,
        legacyData: dynamoLegacyItems(table.db, table.name),
      },
      ADMIN,
    );
  });

  it('registers a user with a workspace of their own and logs them in through the auth bundle', async () => {
    const auth = deployed('AuthFunction');

    const registered = await call(auth, 'POST /api/auth/register', {
      json: { username: 'bundle-newcomer', email: 'newcomer@example.com', password: 'newcomer-password' },
    });
    const login = await call(auth, 'POST /api/auth/login', { json: { username: 'bundle-newcomer', password: 'newcomer-password' } });

    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json.role).toBe('admin');
    expect(login.statusCode, login.body).toBe(200);
    expect(login.headers['x-request-id']).toBeTruthy();
    expect(login.json.token).toMatch(/^ey/);
  });

  it('logs the admin in through the auth bundle', async () => {
    const login = await call(deployed('AuthFunction'), 'POST /api/auth/login', { json: { username: ADMIN.username, password: ADMIN.password } });

    expect(login.statusCode, login.body).toBe(200);
    token = login.json.token;
  });

  it('creates a viewer of the admin’s workspace through the users bundle', async () => {
    const created = await call(deployed('UsersFunction'), 'POST /api/users', {
      token,
      json: { username: 'bundle-viewer', email: 'viewer@example.com', password: 'viewer-password', role: 'viewer' },
    });
    const login = await call(deployed('AuthFunction'), 'POST /api/auth/login', { json: { username: 'bundle-viewer', password: 'viewer-password' } });

    expect(created.statusCode, created.body).toBe(201);
    expect(login.statusCode, login.body).toBe(200);
    viewerToken = login.json.token;
  });

  it('creates a label through the labels bundle', async () => {
    const created = await call(deployed('LabelsFunction'), 'POST /api/labels', { token, json: { name: 'Invoices', color: '#336699' } });

    expect(created.statusCode, created.body).toBe(201);
    labelId = created.json.id;
  });

  it('uploads a PDF with a text layer through the documents bundle and queues its OCR', async () => {
    const form = new FormData();
    form.append('file', new Blob([pdfDocument(PDF_TEXT)], { type: 'application/pdf' }), 'invoice.pdf');
    form.append('labels', labelId);

    const uploaded = await call(deployed('DocumentsFunction'), 'POST /api/documents/upload', { token, form });

    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json.ocr_queued, uploaded.body).toBe(true);
    documentId = uploaded.json.id;
  });

  it('renders the PDF thumbnail in the documents bundle (its worker file and WebAssembly)', async () => {
    const thumbnail = await call(deployed('DocumentsFunction'), 'GET /api/documents/{id}/thumbnail', {
      token: viewerToken,
      pathParameters: { id: documentId },
    });

    expect(thumbnail.statusCode, thumbnail.body).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/png');
    expect(thumbnail.isBase64Encoded).toBe(true);
    const size = pngSize(Buffer.from(thumbnail.body, 'base64'));
    expect(size.width).toBeGreaterThan(0);
    expect(size.height).toBeGreaterThan(0);
  });

  it('the OCR worker bundle reads the text layer from the queued message and completes the document', async () => {
    const response = await drain('OcrWorkerFunction', 'OcrQueue');

    const document = await call(deployed('DocumentsFunction'), 'GET /api/documents/{id}', { token: viewerToken, pathParameters: { id: documentId } });
    expect(response.batchItemFailures).toEqual([]);
    expect(document.json.status).toBe('completed');
    expect(document.json.content).toContain(PDF_TEXT);
  });

  it('the labels bundle counts the labelled document', async () => {
    const labels = await call(deployed('LabelsFunction'), 'GET /api/labels', { token: viewerToken });

    const label = labels.json.labels.find((l: { id: string }) => l.id === labelId);
    expect(label.document_count).toBe(1);
  });

  it('the ingest bundle turns a presigned upload into a document from the bucket notification', async () => {
    const bundles = inject('bundles');
    expect(bundles.functions.bucketNotificationPrefix).toBe('uploads/');
    const bytes = pdfDocument('Scanned contract, uploaded in one PUT');
    const announced = await call(deployed('DocumentsFunction'), 'POST /api/documents/upload-url', {
      token,
      json: { filename: 'contract.pdf', size: bytes.byteLength, ocr_enabled: false },
    });
    expect(announced.statusCode, announced.body).toBe(201);
    const put = await fetch(announced.json.upload_url, { method: 'PUT', body: bytes, headers: announced.json.headers });
    expect(put.status).toBe(200);

    const response = await drain('IngestFunction', bundles.functions.bucketNotificationQueue);

    const document = await call(deployed('DocumentsFunction'), 'GET /api/documents/{id}', {
      token: viewerToken,
      pathParameters: { id: announced.json.document_id },
    });
    expect(response.batchItemFailures).toEqual([]);
    expect(document.statusCode, document.body).toBe(200);
    expect(document.json.filename).toBe('contract.pdf');
    expect(document.json.size).toBe(bytes.byteLength);
  });

  it('the search bundle answers with the P error body when the index refuses the call, and keeps serving', async () => {
    const search = deployed('SearchFunction');

    const first = await call(search, 'GET /api/search', { token: viewerToken, query: { q: 'invoice' } });
    const second = await call(search, 'GET /api/search', { token: viewerToken, query: { q: 'contract' } });

    for (const response of [first, second]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
      expect(response.json.error).toMatchObject({ code: expect.any(String), message: expect.any(String), request_id: response.headers['x-request-id'] });
    }
  });

  describe('a documents asset that lacks a file the bundling put beside index.mjs', () => {
    const thumbnailWithout = async (missing: (file: string) => boolean, size: number) => {
      const asset = inject('bundles').functions.byName['DocumentsFunction']!.runnableAsset;
      const copy = mkdtempSync(join(tmpdir(), 'bundles-broken-'));
      const broken = DeployedFunction.named('DocumentsFunction', { asset: copy });
      try {
        const removed = readdirSync(asset).filter(missing);
        cpSync(asset, copy, { recursive: true, filter: (source) => !removed.includes(basename(source)) });
        // A size not rendered before: a stored thumbnail would be served without rendering.
        const thumbnail = await call(broken, 'GET /api/documents/{id}/thumbnail', {
          token: viewerToken,
          pathParameters: { id: documentId },
          query: { width: String(size), height: String(size) },
        });
        return { removed, thumbnail };
      } finally {
        await broken.stop();
        rmSync(copy, { recursive: true, force: true });
      }
    };

    it('fails the thumbnail without the files beside index.mjs (worker, WebAssembly, native code): the suite catches them', async () => {
      // The function's own code stays: index.mjs and the chunks it imports.
      const { removed, thumbnail } = await thumbnailWithout((file) => file !== 'index.mjs' && file !== LAMBDA_CHUNKS_DIR && !file.endsWith('.map'), 97);

      expect(removed.length).toBeGreaterThan(0);
      expect(thumbnail.statusCode).not.toBe(200);
      expect(thumbnail.json.error.request_id).toBe(thumbnail.headers['x-request-id']);
    });

    it('fails the thumbnail without its worker file: the suite catches a missing worker', async () => {
      const { removed, thumbnail } = await thumbnailWithout((file) => file.startsWith('thumbnail-worker.'), 98);

      expect(removed).toContain('thumbnail-worker.mjs');
      expect(thumbnail.statusCode).not.toBe(200);
    });
  });
});

describe("the stream consumers as bundled, on the table's stream", () => {
  const db = () => createDynamoDocumentClient(localClientOptions(inject('bundles').endpoints.dynamodb));

  /** Delivers the table's stream (everything the journey above wrote) to the bundled function, as its mapping would. */
  async function follow(functionName: string, done: (responses: DynamoDBBatchResponse[]) => Promise<boolean> | boolean): Promise<DynamoDBBatchResponse[]> {
    const bundles = inject('bundles');
    const source = bundles.functions.streamSources.find((s) => s.function === functionName);
    if (!source) throw new Error(`${functionName} reads no table stream`);
    expect(source).toMatchObject({ reportBatchItemFailures: true, bisectBatchOnFunctionError: true });
    const { Table } = await db().send(new DescribeTableCommand({ TableName: bundles.tableName }));
    const responses: DynamoDBBatchResponse[] = [];
    const poller = startStreamPoller({
      streams: createStreamsClient(localClientOptions(bundles.endpoints.dynamodb)),
      source: { streamArn: Table!.LatestStreamArn! },
      functionName,
      batchSize: source.batchSize,
      // Each batch once: what the function answers is what this test reads.
      maximumRetryAttempts: 0,
      bisectBatchOnFunctionError: false,
      pollIntervalMs: 50,
      handler: async (event: DynamoDBStreamEvent) => {
        const response = ((await deployed(functionName).invoke(event)) ?? { batchItemFailures: [] }) as DynamoDBBatchResponse;
        responses.push(response);
        return response;
      },
    });
    try {
      await until(() => done(responses), 20_000, `${functionName} to take the stream`);
    } finally {
      await poller.stop();
    }
    return responses;
  }

  it('the events bundle publishes the changes and records each one it acted on in its ledger', async () => {
    const ledgerEntries = async () =>
      (
        await db().send(
          new ScanCommand({
            TableName: inject('bundles').tableName,
            FilterExpression: 'begins_with(pk, :ledger) AND sk = :consumer',
            ExpressionAttributeValues: { ':ledger': 'STREAMSEEN#', ':consumer': 'events' },
          }),
        )
      ).Items ?? [];

    const responses = await follow('EventsFunction', async () => (await ledgerEntries()).length > 0);

    expect(responses.flatMap((response) => response.batchItemFailures)).toEqual([]);
    expect((await ledgerEntries()).length).toBeGreaterThan(0);
  });

  it('the indexer bundle reports the change it could not index (OpenSearch is not reachable here) as a batch item failure', async () => {
    const responses = await follow('IndexerFunction', (seen) => seen.some((response) => response.batchItemFailures.length > 0));

    const failure = responses.find((response) => response.batchItemFailures.length > 0)!.batchItemFailures[0]!;
    expect(failure.itemIdentifier).toMatch(/^\d+$/);
  });
});
