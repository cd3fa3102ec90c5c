/**
 * Login: what raising scrypt's cost from N = 2^14 to OWASP's minimum, N = 2^17 (r = 8, p = 1), costs
 * `POST /api/auth/login` (target: p95 under 100 ms locally, if scrypt at 2^17 allows it on this machine).
 *
 *   npx tsx bench/login.ts            (or: npm run bench:login, if the script is added)
 *   npx tsx bench/login.ts --quick    fewer samples: a smoke run of the bench itself
 *
 * Results: bench/results/login.json (login.quick.json for --quick).
 *
 * The runtime hashes at one cost, so the comparison runs in this process, on the local runtime's own DynamoDB
 * Local (started as a child process, as the README starts it, with the limits out of reach):
 *
 * 1. over HTTP: the admin's login against the runtime (its hash at N = 2^17): what a client sees;
 * 2. over HTTP, 4 logins at once (a burst; the hasher computes two hashes at a time): each one's latency;
 * 3. in process: the auth handler the runtime serves the route with, built twice over the runtime's table, once
 *    with a hasher at N = 2^14 (before) and once at N = 2^17 (after), each logging in a user of its own whose hash
 *    it made, called with the same API Gateway event, in pairs of random order so that drift falls on both alike;
 * 4. in process, the one login with a hash of N = 2^14 under the hasher at 2^17: it verifies at 2^14, then hashes
 *    at 2^17 and stores the new hash (once per user);
 * 5. scrypt alone, one verify at each cost.
 *
 * Latency is performance.now() around each call, sequential unless said, after a warm-up. The bench reports; it
 * exits non-zero only when it crashes itself.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createAuthHandler, type AuthDeps } from '../functions/auth/handler';
import { DynamoConnectionRepository } from '../shared/adapters/aws/dynamodb/connection-repository';
import { DynamoQuotaCounts } from '../shared/adapters/aws/dynamodb/quota-counts';
import { createDynamoDocumentClient } from '../shared/adapters/aws/clients';
import { DEFAULT_SCRYPT_PARAMS, ScryptPasswordHasher, type ScryptParams } from '../shared/adapters/crypto/scrypt-password-hasher';
import { joseTokens } from '../shared/adapters/jwt/jose-token-service';
import { commonEnvSchema, parseEnv } from '../shared/container/kit/config';
import { requestGate } from '../shared/container/kit/request-gate';
import { noAuthenticationEvents } from '../shared/domain/audit/ports';
import { systemClock } from '../shared/domain/clock';
import { localClientOptions } from '../shared/local/local-clients';
import { registerUser } from '../shared/domain/users/register';
import { dynamoDbCredentials } from '../shared/local/local-resources';
import { ApiClient } from '../test/support/api-client';
import { formerPasswordHash } from '../test/support/former-password-hash';
import { httpEvent, lambdaTestContext } from '../test/support/http-events';
import { RATE_LIMITS_OUT_OF_REACH, type RuntimeProcess } from '../test/support/runtime-process';
import { benchAgainstRuntime, dynamoDbEndpoint, latencySummary, QUICK, timed, type Latency } from './support/runtime-bench';
import { seededRandom } from './support/stats';

const ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };
/** shared/local/runtime.ts names its table so and does not export the name. */
const TABLE_NAME = 'docservice';
const WARMUP = QUICK ? 2 : 5;
const SAMPLES = QUICK ? 10 : 100;
const BURST = 4;
const UPGRADES = QUICK ? 3 : 20;
const TARGET_P95_MS = 100;
const FORMER_PARAMS: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };

const summary = (values: readonly number[]) => latencySummary(values, 1);

/** The auth handler's deps over the runtime's table and key, from the kit, with a hasher that uses `params`. */
async function containerOver(runtime: RuntimeProcess, params: ScryptParams): Promise<AuthDeps> {
  const db = createDynamoDocumentClient(
    localClientOptions(await dynamoDbEndpoint(runtime.child.pid!), await dynamoDbCredentials(runtime.dataDir)),
  );
  const jwtKey = new TextEncoder().encode((await readFile(path.join(runtime.dataDir, 'secrets', 'jwt-signing-key'), 'utf8')).trim());
  const table = { db, name: TABLE_NAME };
  const env = parseEnv(commonEnvSchema, RATE_LIMITS_OUT_OF_REACH);
  const tokens = joseTokens(async () => jwtKey)({ issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: env.JWT_TTL_SECONDS, clock: systemClock });
  return {
    ...requestGate({ table, env, clock: systemClock, tokens }),
    passwords: new ScryptPasswordHasher(params),
    connections: new DynamoConnectionRepository(db, TABLE_NAME, systemClock),
    quotaCounts: new DynamoQuotaCounts(db, TABLE_NAME),
    registrationMode: env.REGISTRATION_MODE,
    refreshGraceSeconds: env.JWT_REFRESH_GRACE_SECONDS,
    authEvents: noAuthenticationEvents,
    oidc: null,
  };
}

async function run(runtime: RuntimeProcess) {
  const anonymous = new ApiClient(runtime.baseUrl);

  // 1. Over HTTP, one at a time.
  const loginOverHttp = async () => {
    const response = await anonymous.post('/api/auth/login', ADMIN);
    if (response.status !== 200) throw new Error(`login answered ${response.status}`);
  };
  for (let i = 0; i < WARMUP; i++) await loginOverHttp();
  const http: number[] = [];
  for (let i = 0; i < SAMPLES; i++) http.push(await timed(loginOverHttp));

  // 2. Over HTTP, BURST at once.
  const burst: number[] = [];
  for (let i = 0; i < Math.ceil(SAMPLES / BURST); i++) {
    burst.push(...(await Promise.all(Array.from({ length: BURST }, () => timed(loginOverHttp)))));
  }

  // 3. In process, the handler with the former and the current hasher, in pairs of random order.
  const before = await containerOver(runtime, FORMER_PARAMS);
  const after = await containerOver(runtime, DEFAULT_SCRYPT_PARAMS);
  const users = { before: { username: 'bench_before', password: 'bench-before-password' }, after: { username: 'bench_after', password: 'bench-after-password' } };
  await registerUser(before, { ...users.before, email: 'before@example.com' });
  await registerUser(after, { ...users.after, email: 'after@example.com' });
  const handlers = { before: createAuthHandler(before), after: createAuthHandler(after) };
  const call = (variant: 'before' | 'after') => async () => {
    const result = (await handlers[variant](httpEvent('POST /api/auth/login', { body: users[variant] }), lambdaTestContext)) as { statusCode: number };
    if (result.statusCode !== 200) throw new Error(`the ${variant} handler answered ${result.statusCode}`);
  };
  const random = seededRandom(17);
  const samples = { before: [] as number[], after: [] as number[] };
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const pair = random() < 0.5 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const variant of pair) {
      const ms = await timed(call(variant));
      if (i >= WARMUP) samples[variant].push(ms);
    }
  }

  // 4. The login that replaces a former hash: the user's hash is set back to one of N = 2^14 before each.
  const afterUser = (await after.users.findByUsername(users.after.username))!;
  const upgrades: number[] = [];
  for (let i = 0; i < UPGRADES; i++) {
    const current = (await after.users.findById(afterUser.id))!.password_hash;
    await after.users.rehashPassword(afterUser.id, current, formerPasswordHash(users.after.password));
    upgrades.push(await timed(call('after')));
    if (after.passwords.needsRehash((await after.users.findById(afterUser.id))!.password_hash)) throw new Error('the login did not replace the former hash');
  }

  // 5. scrypt alone.
  const verify = async (params: ScryptParams) => {
    const hasher = new ScryptPasswordHasher(params);
    const hash = await hasher.hash('a password');
    const values: number[] = [];
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const ms = await timed(() => hasher.verify('a password', hash));
      if (i >= WARMUP) values.push(ms);
    }
    return summary(values);
  };

  return {
    http: summary(http),
    burst: summary(burst),
    inProcess: { before: summary(samples.before), after: summary(samples.after) },
    upgradeLogin: summary(upgrades),
    scryptVerify: { before: await verify(FORMER_PARAMS), after: await verify(DEFAULT_SCRYPT_PARAMS) },
  };
}

type Result = Awaited<ReturnType<typeof run>>;

function markdownTable(result: Result): string {
  const row = (what: string, latency: Latency) =>
    `| ${what} | ${latency.p50Ms.toFixed(1)} | ${latency.p95Ms.toFixed(1)} | ${latency.p99Ms.toFixed(1)} | ${latency.samples} |`;
  return [
    '| POST /api/auth/login | p50 ms | p95 ms | p99 ms | samples |',
    '| --- | ---: | ---: | ---: | ---: |',
    row('over HTTP, N = 2^17, one at a time', result.http),
    row(`over HTTP, N = 2^17, ${BURST} at once (each)`, result.burst),
    row('handler in process, N = 2^14 (before)', result.inProcess.before),
    row('handler in process, N = 2^17 (after)', result.inProcess.after),
    row('handler in process, a hash of 2^14 replaced (once per user)', result.upgradeLogin),
    row('scrypt verify alone, N = 2^14', result.scryptVerify.before),
    row('scrypt verify alone, N = 2^17', result.scryptVerify.after),
    '',
    `Target: p95 under ${TARGET_P95_MS} ms: ${result.http.p95Ms < TARGET_P95_MS ? 'met' : 'not met'} ` +
      `(over HTTP ${result.http.p95Ms.toFixed(1)} ms; scrypt at 2^17 alone ${result.scryptVerify.after.p50Ms.toFixed(1)} ms at p50).`,
  ].join('\n');
}

async function main(): Promise<void> {
  await benchAgainstRuntime({
    name: 'login',
    // The product's cost: the test suites' runtimes hash at a lower one (FAST_PASSWORD_HASHING).
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, PASSWORD_HASH_COST: String(Math.log2(DEFAULT_SCRYPT_PARAMS.N)) },
    describe: `${WARMUP} warm-up, ${SAMPLES} samples per series`,
    measure: run,
    table: markdownTable,
    report: { target: { p95Ms: TARGET_P95_MS }, warmup: WARMUP },
  });
}

await main();
