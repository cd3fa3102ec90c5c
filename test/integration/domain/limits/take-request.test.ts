import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoRateLimitStore } from '../../../../shared/adapters/aws/dynamodb/rate-limit-store';
import type { Clock } from '../../../../shared/domain/clock';
import type { RateLimitStore } from '../../../../shared/domain/limits/ports';
import { RequestLimiter } from '../../../../shared/domain/limits/take-request';
import { freshTable } from '../../../support/aws-resources';

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
    // Arrange
    const { clock } = manualClock();
    const limiter = new RequestLimiter(store, clock);
    const key = bucket();

    // Act
    const decisions = [];
    for (let i = 0; i < 21; i++) decisions.push(await limiter.take(key, POLICY));

    // Assert
    expect(decisions.slice(0, 20).every((d) => d?.allowed)).toBe(true);
    expect(decisions[20]).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('shares one limit between two instances, as two Lambdas would', async () => {
    // Arrange
    const { clock } = manualClock();
    const instances = [new RequestLimiter(store, clock), new RequestLimiter(store, clock)];
    const key = bucket();

    // Act
    let allowed = 0;
    for (let i = 0; i < 30; i++) if ((await instances[i % 2]!.take(key, POLICY))?.allowed) allowed++;

    // Assert
    expect(allowed).toBe(20);
  });

  it('refuses on the state another instance stored although its own memory of the bucket says there is room', async () => {
    // Arrange
    const { clock } = manualClock();
    const key = bucket();
    const stale = new RequestLimiter(store, clock);
    await stale.take(key, POLICY);
    const other = new RequestLimiter(store, clock);
    for (let i = 0; i < 19; i++) await other.take(key, POLICY);

    // Act
    const decision = await stale.take(key, POLICY);

    // Assert
    expect(decision).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('lets a new instance see what earlier ones used, as after a restart', async () => {
    // Arrange
    const { clock } = manualClock();
    const key = bucket();
    const before = new RequestLimiter(store, clock);
    for (let i = 0; i < 20; i++) await before.take(key, POLICY);

    // Act
    const afterRestart = await new RequestLimiter(store, clock).take(key, POLICY);

    // Assert
    expect(afterRestart?.allowed).toBe(false);
  });

  it('refills with time', async () => {
    // Arrange
    const { clock, advance } = manualClock();
    const limiter = new RequestLimiter(store, clock);
    const key = bucket();
    for (let i = 0; i < 20; i++) await limiter.take(key, POLICY);

    // Act
    advance(1200);

    // Assert
    expect((await limiter.take(key, POLICY))?.remaining).toBe(1);
  });

  it('answers whether a bucket has room without taking from it', async () => {
    // Arrange
    const { clock } = manualClock();
    const limiter = new RequestLimiter(store, clock);
    const key = bucket();
    for (let i = 0; i < 19; i++) await limiter.take(key, POLICY);

    // Act
    const checks = [await limiter.hasRoom(key, POLICY), await limiter.hasRoom(key, POLICY)];

    // Assert
    expect(checks.map((check) => check.allowed)).toEqual([true, true]);
    expect((await limiter.take(key, POLICY))?.allowed).toBe(true);
    expect((await limiter.take(key, POLICY))?.allowed).toBe(false);
  });

  it('lets the request through (null) when every write loses its race to another instance', async () => {
    // Arrange: before each of this instance's writes, another one moves the bucket.
    const { clock } = manualClock();
    const key = bucket();
    const other = new RequestLimiter(store, clock);
    const contended: RateLimitStore = {
      tatOf: (name) => store.tatOf(name),
      compareAndSet: async (name, expected, next, expiresAt) => {
        await other.take(name, { perMinute: 100, burst: 1000 });
        return store.compareAndSet(name, expected, next, expiresAt);
      },
    };
    const limiter = new RequestLimiter(contended, clock);

    // Act
    const decision = await limiter.take(key, POLICY);

    // Assert
    expect(decision).toBeNull();
  });

  it('keeps each bucket as one item that expires once the bucket is full again', async () => {
    // Arrange
    const { clock } = manualClock();
    const key = bucket();

    // Act
    await new RequestLimiter(store, clock).take(key, POLICY);

    // Assert
    const { Item } = await table.db.send(new GetCommand({ TableName: table.tableName, Key: { pk: `RATE#${key}`, sk: 'BUCKET' } }));
    expect(Item).toEqual({ pk: `RATE#${key}`, sk: 'BUCKET', tat: clock.now().getTime() + 600, ttl: Math.ceil((clock.now().getTime() + 600) / 1000) });
  });
});
