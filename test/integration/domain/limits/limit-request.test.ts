import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoRateLimitStore } from '../../../../shared/adapters/aws/dynamodb/rate-limit-store';
import type { Clock } from '../../../../shared/domain/clock';
import { AppError } from '../../../../shared/domain/errors';
import { limitRequest, rateLimited } from '../../../../shared/domain/limits/limit-request';
import { RequestLimiter } from '../../../../shared/domain/limits/take-request';
import { freshTable } from '../../../support/aws-resources';

const LIMITS = { user: { perMinute: 100, burst: 20 }, upload: { perMinute: 10, burst: 10 }, anonymous: { perMinute: 60, burst: 20 } };
const clock: Clock = { now: () => new Date(Date.UTC(2026, 10, 23, 12)) };

describe('limitRequest on DynamoDB', () => {
  let limiter: RequestLimiter;
  const user = (isUpload: boolean) => ({ userId: crypto.randomUUID(), sourceIp: '127.0.0.1', isUpload });

  beforeAll(async () => {
    const table = await freshTable();
    limiter = new RequestLimiter(new DynamoRateLimitStore(table.db, table.tableName), clock);
  });

  it('refuses an upload burst at its own limit before the general one', async () => {
    // Arrange
    const origin = user(true);

    // Act
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await limitRequest(limiter, LIMITS, origin));

    // Assert
    expect(decisions[9]).toMatchObject({ allowed: true, limit: 10, remaining: 0 });
    expect(decisions[10]).toMatchObject({ allowed: false, limit: 10 });
    expect(await limitRequest(limiter, LIMITS, { ...origin, isUpload: false })).toMatchObject({ allowed: true, limit: 100, remaining: 8 });
  });

  it('reports the general bucket for a request that is not an upload', async () => {
    // Arrange
    const origin = user(false);

    // Act
    const decision = await limitRequest(limiter, LIMITS, origin);

    // Assert
    expect(decision).toMatchObject({ allowed: true, limit: 100, remaining: 19 });
  });

  it('refuses an upload by the general bucket without taking from the upload bucket once the user has spent it', async () => {
    // Arrange
    const origin = user(false);
    for (let i = 0; i < 20; i++) await limitRequest(limiter, LIMITS, origin);

    // Act
    const refused = await limitRequest(limiter, LIMITS, { ...origin, isUpload: true });

    // Assert
    expect(refused).toMatchObject({ allowed: false, limit: 100 });
    expect(await limiter.hasRoom(`upload#${origin.userId}`, LIMITS.upload)).toMatchObject({ remaining: 9 });
  });

  it('limits requests without a user by client IP', async () => {
    // Arrange
    const ip = `10.0.0.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 20; i++) await limitRequest(limiter, LIMITS, { userId: null, sourceIp: ip, isUpload: false });

    // Act
    const refused = await limitRequest(limiter, LIMITS, { userId: null, sourceIp: ip, isUpload: false });
    const otherIp = await limitRequest(limiter, LIMITS, { userId: null, sourceIp: `${ip}1`, isUpload: false });

    // Assert
    expect(refused?.allowed).toBe(false);
    expect(otherIp?.allowed).toBe(true);
  });
});

describe('rateLimited', () => {
  it('is a RATE_LIMITED error naming the limit and when to retry', () => {
    // Arrange
    const decision = { allowed: false, limit: 100, remaining: 0, resetAt: 0, retryAfterSeconds: 7 };

    // Act
    const error = rateLimited(decision);

    // Assert
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', details: { limit_per_minute: 100, retry_after_seconds: 7 } });
  });
});
