import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoRateLimitStore } from '../../../../shared/adapters/aws/dynamodb/rate-limit-store';
import type { Clock } from '../../../../shared/domain/clock';
import { checkLoginAllowed, LOGIN_FAILURES, recordLoginFailure } from '../../../../shared/domain/limits/login-failures';
import { RequestLimiter } from '../../../../shared/domain/limits/take-request';
import { freshTable } from '../../../support/aws-resources';

describe('login failures on DynamoDB', () => {
  let now = Date.UTC(2026, 10, 23, 12);
  const clock: Clock = { now: () => new Date(now) };
  let limiter: RequestLimiter;
  const guessedName = () => `guessed-${crypto.randomUUID()}`;
  const spend = async (name: string) => {
    for (let i = 0; i < LOGIN_FAILURES.burst; i++) await recordLoginFailure(limiter, name);
  };

  beforeAll(async () => {
    const table = await freshTable();
    limiter = new RequestLimiter(new DynamoRateLimitStore(table.db, table.tableName), clock);
  });

  it('refuses a login for a name whose failures are used up, with RATE_LIMITED and when to retry', async () => {
    // Arrange
    const name = guessedName();
    await spend(name);

    // Act
    const outcome = await checkLoginAllowed(limiter, name).catch((error: unknown) => error);

    // Assert
    expect(outcome).toMatchObject({ code: 'RATE_LIMITED', details: { limit_per_minute: 2, retry_after_seconds: 30 } });
  });

  it('counts the failures of a name whatever its letter case', async () => {
    // Arrange
    const name = guessedName();
    await spend(name.toUpperCase());

    // Act
    const outcome = await checkLoginAllowed(limiter, name).catch((error: unknown) => error);

    // Assert
    expect(outcome).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('lets every other name log in while one name is refused', async () => {
    // Arrange
    const name = guessedName();
    await spend(name);

    // Act
    const other = checkLoginAllowed(limiter, `other-${name}`);

    // Assert
    await expect(other).resolves.toBeUndefined();
  });

  it('lets a login through before the failures are used up, and checking spends none of them', async () => {
    // Arrange
    const name = guessedName();
    for (let i = 0; i < LOGIN_FAILURES.burst - 1; i++) await recordLoginFailure(limiter, name);

    // Act
    for (let i = 0; i < 3; i++) await checkLoginAllowed(limiter, name);

    // Assert
    await recordLoginFailure(limiter, name);
    await expect(checkLoginAllowed(limiter, name)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('lets the user try again once one interval has passed', async () => {
    // Arrange
    const name = guessedName();
    await spend(name);

    // Act
    now += 30_000;

    // Assert
    await expect(checkLoginAllowed(limiter, name)).resolves.toBeUndefined();
  });
});
