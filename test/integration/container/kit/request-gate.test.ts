import { beforeAll, describe, expect, it } from 'vitest';
import { createSettingsHandler } from '../../../../functions/settings/handler';
import { joseTokens } from '../../../../shared/adapters/jwt/jose-token-service';
import { commonEnvSchema, parseEnv } from '../../../../shared/container/kit/config';
import { requestGate, type RequestGate } from '../../../../shared/container/kit/request-gate';
import { passwordHasher } from '../../../../shared/container/kit/serving';
import { systemClock } from '../../../../shared/domain/clock';
import { login } from '../../../../shared/domain/auth/login';
import { registerUser } from '../../../../shared/domain/users/register';
import { freshTable } from '../../../support/aws-resources';
import { httpEvent, lambdaTestContext } from '../../../support/http-events';

/**
 * Two handlers built from separate gates over one table, as two Lambda instances of a deployment are: the limit
 * is the deployment's, not the instance's.
 */
describe('rate limits across handler instances', () => {
  const env = parseEnv(commonEnvSchema, { RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_BURST: '4' });
  let first: RequestGate;
  let second: RequestGate;
  let token: string;

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    const table = { db, name: tableName };
    const tokens = joseTokens(async () => new TextEncoder().encode('integration-test-signing-key-of-32-bytes'))({
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      ttlSeconds: env.JWT_TTL_SECONDS,
      clock: systemClock,
    });
    first = requestGate({ table, env, clock: systemClock, tokens });
    second = requestGate({ table, env, clock: systemClock, tokens });
    const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };
    const accounts = { ...first, passwords: passwordHasher(env), registrationMode: env.REGISTRATION_MODE };
    await registerUser(accounts, alice);
    token = (await login(accounts, alice)).token;
  });

  it('shares one burst between two instances', async () => {
    // Arrange
    const [a, b] = [createSettingsHandler(first), createSettingsHandler(second)];
    const request = () => httpEvent('GET /api/settings', { headers: { authorization: `Bearer ${token}` } });

    // Act
    const statuses: number[] = [];
    for (const handler of [a, b, a, b, a]) statuses.push((await handler(request(), lambdaTestContext)).statusCode);

    // Assert
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
