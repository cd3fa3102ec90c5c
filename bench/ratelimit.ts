/**
 * Rate limiter: what counting a request costs `GET /api/documents` (issue 15; target: under 3 ms at p95, locally).
 *
 *   npx tsx bench/ratelimit.ts            (or: npm run bench:ratelimit, if the script is added)
 *   npx tsx bench/ratelimit.ts --quick    fewer samples: a smoke run of the bench itself
 *
 * Results: bench/results/ratelimit.json (ratelimit.quick.json for --quick).
 *
 * The runtime has no switch that turns the limiter off (a limit is part of profile P), so the comparison runs in
 * this process, on the local runtime's own DynamoDB Local (started as a child process, as the README starts it,
 * with the limits out of reach, as the test runtimes have them):
 *
 * 1. over HTTP: `GET /api/documents` (a page of 20) against the runtime, limiter on: what a client sees;
 * 2. in process: the documents handler the runtime serves the route with, built twice from the kit over the
 *    runtime's table and JWT key, once with the gate's limiter and once with a limiter that counts nothing
 *    (the pipeline then adds no X-RateLimit-* headers either), called with the same API Gateway event, in pairs of
 *    random order so that drift (JIT, DynamoDB Local's JVM, the other load on the machine) falls on both alike;
 * 3. in process: the limiter call alone (`limits()`, one conditional UpdateItem on the user's `RATE#` item), which
 *    the pipeline awaits before the handler runs: the cost it adds;
 * 4. for scale, one plain DynamoDB Local read (`users.findById`, a GetItem) and one plain write (an unconditional
 *    UpdateItem of an item of the bench's own): DynamoDB Local keeps the runtime's data on disk (SQLite), so a
 *    write costs what the disk makes it cost.
 *
 * The machine's load average is recorded before and after: on a shared machine it moves every number here.
 *
 * Latency is performance.now() around each call (over HTTP: fetch with the body read), sequential, after a
 * warm-up. The bench reports; it exits non-zero only when it crashes itself.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoDocumentClient } from '../shared/adapters/aws/clients';
import { WriteBehindRateLimitStore } from '../shared/adapters/local/write-behind-rate-limit-store';
import { WriteBehindUsageMeter } from '../shared/adapters/local/write-behind-usage-meter';
import { requestGate, type RequestGate } from '../shared/container/kit/request-gate';
import { workspaceTableStores } from '../shared/container/kit/workspace-data';
import { systemClock } from '../shared/domain/clock';
import { noBusinessMetrics } from '../shared/domain/metrics/ports';
import { joseTokens } from '../shared/adapters/jwt/jose-token-service';
import { commonEnvSchema, parseEnv } from '../shared/container/kit/config';
import { localClientOptions } from '../shared/local/local-clients';
import { dynamoDbCredentials } from '../shared/local/local-resources';
import { createDocumentsHandler, type DocumentsDeps } from '../functions/documents/handler';
import { ApiClient } from '../test/support/api-client';
import { pngImage } from '../test/support/fixtures';
import { httpEvent, lambdaTestContext } from '../test/support/http-events';
import { RATE_LIMITS_OUT_OF_REACH, type RuntimeProcess } from '../test/support/runtime-process';
import { benchAgainstRuntime, dynamoDbEndpoint, latencySummary, QUICK, timed, type Latency } from './support/runtime-bench';
import { round, seededRandom } from './support/stats';

const ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };
/** shared/local/runtime.ts names its table so and does not export the name. */
const TABLE_NAME = 'docservice';
const DOCUMENTS = 20;
const WARMUP = QUICK ? 30 : 100;
const SAMPLES = QUICK ? 100 : 1000;
const TARGET_ADDED_P95_MS = 3;

const summary = (values: readonly number[]) => latencySummary(values, 2);

/** GET /api/documents answers only from the table: the ports of the other document routes are never reached. */
const unreached = <T>(name: string): T => {
  const fail = (): never => {
    throw new Error(`GET /api/documents reached ${name}`);
  };
  return new Proxy(fail, { get: fail, apply: fail }) as T;
};

/**
 * The documents handler's deps over the runtime's table and key, with the limits the runtime was started with:
 * `container` counts as the local runtime does (limits decided and usage counted in memory, both written behind),
 * `cloud` as a Lambda does (one conditional write per request, and the usage's ADD beside it).
 */
async function containerOver(runtime: RuntimeProcess): Promise<{ container: DocumentsDeps & RequestGate; cloud: RequestGate; db: ReturnType<typeof createDynamoDocumentClient> }> {
  const db = createDynamoDocumentClient(
    localClientOptions(await dynamoDbEndpoint(runtime.child.pid!), await dynamoDbCredentials(runtime.dataDir)),
  );
  const jwtKey = new TextEncoder().encode((await readFile(path.join(runtime.dataDir, 'secrets', 'jwt-signing-key'), 'utf8')).trim());
  const table = { db, name: TABLE_NAME };
  const env = parseEnv(commonEnvSchema, RATE_LIMITS_OUT_OF_REACH);
  const tokens = joseTokens(async () => jwtKey)({ issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: env.JWT_TTL_SECONDS, clock: systemClock });
  const gate = requestGate({
    table,
    env,
    clock: systemClock,
    tokens,
    // The runtime counts a request's usage in memory too; without this each limited request waited for a write.
    decorate: { rateLimits: (store) => new WriteBehindRateLimitStore(store), usageMeter: (meter) => new WriteBehindUsageMeter(meter) },
  });
  const stores = workspaceTableStores(table, systemClock, gate);
  const container: DocumentsDeps & RequestGate = {
    ...gate,
    metrics: noBusinessMetrics,
    regex: unreached('regex'),
    ruleLog: unreached('ruleLog'),
    thumbnails: unreached('thumbnails'),
    sha256: unreached('sha256'),
    ocrLanguages: unreached('ocrLanguages'),
    forWorkspace: (workspaceId) => ({
      ...stores('workspaceId', 'documents', 'uploads', 'labels', 'rules')(workspaceId),
      files: unreached('files'),
      ocrQueue: unreached('ocrQueue'),
    }),
  };
  return { container, cloud: requestGate({ table, env, clock: systemClock, tokens }), db };
}

async function run(runtime: RuntimeProcess) {
  const admin = await new ApiClient(runtime.baseUrl).login(ADMIN.username, ADMIN.password);
  for (let i = 0; i < DOCUMENTS; i++) await admin.uploadDocument(`page-${i}.png`, pngImage(8, 8), { ocr_enabled: 'false' });
  const profile = await admin.get('/api/users/profile');
  const userId = profile.body.id as string;

  // 1. Over HTTP, limiter on.
  const listOverHttp = async () => {
    const response = await admin.get('/api/documents');
    if (response.status !== 200) throw new Error(`GET /api/documents answered ${response.status}`);
  };
  for (let i = 0; i < WARMUP; i++) await listOverHttp();
  const http: number[] = [];
  for (let i = 0; i < SAMPLES; i++) http.push(await timed(listOverHttp));

  // 2. In process, the same handler with and without the limiter, in pairs of random order.
  const { container, cloud, db } = await containerOver(runtime);
  const withLimiter = createDocumentsHandler(container);
  const withoutLimiter = createDocumentsHandler({ ...container, limits: async () => null });
  const event = () => httpEvent('GET /api/documents', { headers: { authorization: `Bearer ${admin.token}` } });
  const call = (handler: typeof withLimiter, counted: boolean) => async () => {
    const result = (await handler(event(), lambdaTestContext)) as { statusCode: number; headers?: Record<string, unknown> };
    if (result.statusCode !== 200) throw new Error(`the handler answered ${result.statusCode}`);
    // Proof that each variant is what it says: only a counted request carries the limit headers.
    if (counted !== Object.keys(result.headers ?? {}).some((name) => name.toLowerCase() === 'x-ratelimit-limit')) {
      throw new Error(`the ${counted ? 'limited' : 'unlimited'} handler ${counted ? 'did not count' : 'counted'} the request`);
    }
  };
  const random = seededRandom(15);
  const withSamples: number[] = [];
  const withoutSamples: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const pair = random() < 0.5 ? (['with', 'without'] as const) : (['without', 'with'] as const);
    for (const variant of pair) {
      const ms = await timed(call(variant === 'with' ? withLimiter : withoutLimiter, variant === 'with'));
      if (i >= WARMUP) (variant === 'with' ? withSamples : withoutSamples).push(ms);
    }
  }

  // 3. The limiter call alone, as the pipeline makes it for this user.
  const origin = { userId, sourceIp: '127.0.0.1', isUpload: false };
  const limiterCall = async () => {
    const decision = await container.limits(origin);
    if (!decision?.allowed) throw new Error(`the limiter did not count the request: ${JSON.stringify(decision)}`);
  };
  for (let i = 0; i < WARMUP; i++) await limiterCall();
  const limiter: number[] = [];
  for (let i = 0; i < SAMPLES; i++) limiter.push(await timed(limiterCall));
  const cloudLimiterCall = async () => {
    const decision = await cloud.limits(origin);
    if (!decision?.allowed) throw new Error(`the cloud limiter did not count the request: ${JSON.stringify(decision)}`);
  };
  for (let i = 0; i < WARMUP; i++) await cloudLimiterCall();
  const cloudLimiter: number[] = [];
  for (let i = 0; i < SAMPLES; i++) cloudLimiter.push(await timed(cloudLimiterCall));

  // 4. One plain round trip to the same DynamoDB Local, for scale.
  const getItem = async () => {
    if (!(await container.users.findById(userId))) throw new Error('the admin is gone');
  };
  for (let i = 0; i < WARMUP; i++) await getItem();
  const roundTrip: number[] = [];
  for (let i = 0; i < SAMPLES; i++) roundTrip.push(await timed(getItem));
  let counter = 0;
  const write = () =>
    db.send(
      new UpdateCommand({
        TableName: TABLE_NAME,
        Key: { pk: 'BENCH#ratelimit', sk: 'WRITE' },
        UpdateExpression: 'SET n = :n',
        ExpressionAttributeValues: { ':n': ++counter },
      }),
    );
  for (let i = 0; i < WARMUP; i++) await write();
  const writes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) writes.push(await timed(write));

  const inProcessWith = summary(withSamples);
  const inProcessWithout = summary(withoutSamples);
  return {
    documents: DOCUMENTS,
    http: summary(http),
    inProcess: {
      withLimiter: inProcessWith,
      withoutLimiter: inProcessWithout,
      addedP50Ms: round(inProcessWith.p50Ms - inProcessWithout.p50Ms, 2),
      addedP95Ms: round(inProcessWith.p95Ms - inProcessWithout.p95Ms, 2),
    },
    limiterCall: summary(limiter),
    cloudLimiterCall: summary(cloudLimiter),
    dynamoDbGetItem: summary(roundTrip),
    dynamoDbUpdateItem: summary(writes),
  };
}

type Result = Awaited<ReturnType<typeof run>>;

function markdownTable(result: Result): string {
  const row = (what: string, latency: Latency) =>
    `| ${what} | ${latency.p50Ms.toFixed(2)} | ${latency.p95Ms.toFixed(2)} | ${latency.p99Ms.toFixed(2)} | ${latency.samples} |`;
  const added = result.inProcess;
  return [
    '| GET /api/documents (page of 20) | p50 ms | p95 ms | p99 ms | samples |',
    '| --- | ---: | ---: | ---: | ---: |',
    row('over HTTP, limiter on', result.http),
    row('handler in process, limiter on', added.withLimiter),
    row('handler in process, limiter off', added.withoutLimiter),
    row('the limiter call alone', result.limiterCall),
    row('the limiter call as a Lambda makes it (one conditional write)', result.cloudLimiterCall),
    row('for scale: one DynamoDB Local GetItem', result.dynamoDbGetItem),
    row('for scale: one DynamoDB Local UpdateItem', result.dynamoDbUpdateItem),
    '',
    `Added by the limiter (in process, on minus off): p50 ${added.addedP50Ms.toFixed(2)} ms, p95 ${added.addedP95Ms.toFixed(2)} ms; ` +
      `the call alone p95 ${result.limiterCall.p95Ms.toFixed(2)} ms. Target: under ${TARGET_ADDED_P95_MS} ms at p95: ` +
      `${Math.max(added.addedP95Ms, result.limiterCall.p95Ms) < TARGET_ADDED_P95_MS ? 'met' : 'not met'}.`,
  ].join('\n');
}

async function main(): Promise<void> {
  await benchAgainstRuntime({
    name: 'ratelimit',
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, JWT_TTL_SECONDS: '86400' },
    describe: `${WARMUP} warm-up, ${SAMPLES} samples per series`,
    measure: run,
    table: markdownTable,
    report: { target: { addedP95Ms: TARGET_ADDED_P95_MS }, warmup: WARMUP },
  });
}

await main();
