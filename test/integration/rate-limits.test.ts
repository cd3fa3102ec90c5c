import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoRateLimitStore } from '../../shared/adapters/aws/dynamodb/rate-limit-store';
import type { Clock } from '../../shared/domain/clock';
import { limitRequest } from '../../shared/domain/limits/limit-request';
import { checkLoginAllowed, LOGIN_FAILURES, recordLoginFailure } from '../../shared/domain/limits/login-failures';
import { RequestLimiter } from '../../shared/domain/limits/take-request';
import { freshTable } from '../support/aws-resources';

const POLICY = { perMinute: 100, burst: 20 };

/** A clock the test moves by hand, shared by the instances of one test. */
const manualClock = (start = Date.UTC(2026, 10, 23, 12)) => {
  let now = start;
  const clock: Clock = { now: () => new Date(now) };
  return { clock, advance: (ms: number) => (now += ms) };
};

describe('RequestLimiter on DynamoDB', () => {
  let table: Awaited<ReturnType<typeof freshTable>>;
  let store: DynamoRateLimitStore;
  const bucket = () => `user#${crypto.randomUUID()}`;

  beforeAll(async () => {
    table = await freshTable();
    store = new DynamoRateLimitStore(table.db, table.tableName);
  });

  it('refuses the 21st request of a burst', async () => {
    const { clock } = manualClock();
    const limiter = new RequestLimiter(store, clock);
    const key = bucket();

    const decisions = [];
    for (let i = 0; i < 21; i++) decisions.push(await limiter.take(key, POLICY));

    expect(decisions.slice(0, 20).every((d) => d?.allowed)).toBe(true);
    expect(decisions[20]).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('shares one limit between two instances, as two Lambdas would', async () => {
    const { clock } = manualClock();
    const instances = [new RequestLimiter(store, clock), new RequestLimiter(store, clock)];
    const key = bucket();

    let allowed = 0;
    for (let i = 0; i < 30; i++) if ((await instances[i % 2]!.take(key, POLICY))?.allowed) allowed++;

    expect(allowed).toBe(20);
  });

  it('lets a new instance see what earlier ones used, as after a restart', async () => {
    const { clock } = manualClock();
    const key = bucket();
    const before = new RequestLimiter(store, clock);
    for (let i = 0; i < 20; i++) await before.take(key, POLICY);

    const afterRestart = await new RequestLimiter(store, clock).take(key, POLICY);

    expect(afterRestart?.allowed).toBe(false);
  });

  it('refills with time', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RequestLimiter(store, clock);
    const key = bucket();
    for (let i = 0; i < 20; i++) await limiter.take(key, POLICY);

    advance(1200);

    expect((await limiter.take(key, POLICY))?.remaining).toBe(1);
  });

  it('keeps each bucket as one item that expires once the bucket is full again', async () => {
    const { clock } = manualClock();
    const key = bucket();

    await new RequestLimiter(store, clock).take(key, POLICY);

    const { Item } = await table.db.send(new GetCommand({ TableName: table.tableName, Key: { pk: `RATE#${key}`, sk: 'BUCKET' } }));
    expect(Item).toEqual({ pk: `RATE#${key}`, sk: 'BUCKET', tat: clock.now().getTime() + 600, ttl: Math.ceil((clock.now().getTime() + 600) / 1000) });
  });
});

describe('the request limits on DynamoDB', () => {
  const LIMITS = { user: { perMinute: 100, burst: 20 }, upload: { perMinute: 10, burst: 10 }, anonymous: { perMinute: 60, burst: 20 } };
  let limiter: RequestLimiter;

  beforeAll(async () => {
    const table = await freshTable();
    limiter = new RequestLimiter(new DynamoRateLimitStore(table.db, table.tableName), manualClock().clock);
  });

  it('refuses an upload burst at its own limit before the general one', async () => {
    const origin = { userId: crypto.randomUUID(), sourceIp: '127.0.0.1', isUpload: true };

    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await limitRequest(limiter, LIMITS, origin));

    expect(decisions[9]).toMatchObject({ allowed: true, limit: 10, remaining: 0 });
    expect(decisions[10]).toMatchObject({ allowed: false, limit: 10 });
    expect(await limitRequest(limiter, LIMITS, { ...origin, isUpload: false })).toMatchObject({ allowed: true, limit: 100, remaining: 8 });
  });

  it('limits requests without a user by client IP', async () => {
    const ip = `10.0.0.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 20; i++) await limitRequest(limiter, LIMITS, { userId: null, sourceIp: ip, isUpload: false });

    const refused = await limitRequest(limiter, LIMITS, { userId: null, sourceIp: ip, isUpload: false });
    const otherIp = await limitRequest(limiter, LIMITS, { userId: null, sourceIp: `${ip}1`, isUpload: false });

    expect(refused?.allowed).toBe(false);
    expect(otherIp?.allowed).toBe(true);
  });

  it('refuses a login for a name whose failures are used up, before any password check', async () => {
    const name = `guessed-${crypto.randomUUID()}`;
    for (let i = 0; i < LOGIN_FAILURES.burst; i++) await recordLoginFailure(limiter, name);

    const outcome = await checkLoginAllowed(limiter, name.toUpperCase()).catch((error: unknown) => error);

    expect(outcome).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after_seconds: 30 } });
    await expect(checkLoginAllowed(limiter, `other-${name}`)).resolves.toBeUndefined();
  });
});
