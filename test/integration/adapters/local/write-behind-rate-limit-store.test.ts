import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoRateLimitStore } from '../../../../shared/adapters/aws/dynamodb/rate-limit-store';
import { WriteBehindRateLimitStore } from '../../../../shared/adapters/local/write-behind-rate-limit-store';
import { RequestLimiter } from '../../../../shared/domain/limits/take-request';
import { freshTable } from '../../../support/aws-resources';

const POLICY = { perMinute: 6, burst: 3 };
const clock = { now: () => new Date() };

/** The local runtime's buckets: decided in memory, written behind, on DynamoDB Local. */
describe('WriteBehindRateLimitStore', () => {
  let stored: DynamoRateLimitStore;
  const bucket = () => `user#${crypto.randomUUID()}`;

  beforeAll(async () => {
    const table = await freshTable();
    stored = new DynamoRateLimitStore(table.db, table.tableName);
  });

  it('refuses the request after the burst, as the table would', async () => {
    const limiter = new RequestLimiter(new WriteBehindRateLimitStore(stored), clock);
    const name = bucket();

    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.take(name, POLICY));

    expect(decisions.map((decision) => decision?.allowed)).toEqual([true, true, true, false]);
  });

  it('writes the latest value of a bucket to the table once flushed', async () => {
    const store = new WriteBehindRateLimitStore(stored);
    const limiter = new RequestLimiter(store, clock);
    const name = bucket();
    for (let i = 0; i < 3; i++) await limiter.take(name, POLICY);

    await store.flush();

    expect(await stored.tatOf(name)).toBe(await store.tatOf(name));
  });

  it('gives a new process the buckets the last one used up, as after a restart', async () => {
    const first = new WriteBehindRateLimitStore(stored);
    const name = bucket();
    for (let i = 0; i < 3; i++) await new RequestLimiter(first, clock).take(name, POLICY);
    await first.flush();

    const afterRestart = await new RequestLimiter(new WriteBehindRateLimitStore(stored), clock).take(name, POLICY);

    expect(afterRestart?.allowed).toBe(false);
  });

  it('keeps concurrent requests of one process exact', async () => {
    const limiter = new RequestLimiter(new WriteBehindRateLimitStore(stored), clock);
    const name = bucket();

    const decisions = await Promise.all(Array.from({ length: 6 }, () => limiter.take(name, POLICY)));

    expect(decisions.filter((decision) => decision?.allowed)).toHaveLength(3);
  });
});

describe('DynamoRateLimitStore.raise', () => {
  it('never lowers a bucket, whatever order its writes land in', async () => {
    const table = await freshTable();
    const stored = new DynamoRateLimitStore(table.db, table.tableName);
    const expiresAt = new Date(Date.now() + 60_000);

    await stored.raise('user#late', 2_000, expiresAt);
    await stored.raise('user#late', 1_000, expiresAt);

    expect(await stored.tatOf('user#late')).toBe(2_000);
  });
});
