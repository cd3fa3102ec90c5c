import { beforeAll, describe, expect, it } from 'vitest';
import { createSettingsHandler } from '../../../functions/settings/handler';
import type { AppContainer } from '../../../shared/container/app-container';
import { buildAppContainer } from '../../../shared/container/build-app-container';
import { commonEnvSchema, parseEnv } from '../../../shared/container/config';
import { requestServing } from '../../../shared/container/request-serving';
import { login } from '../../../shared/domain/auth/login';
import { registerUser } from '../../../shared/domain/users/register';
import { freshTable } from '../../support/aws-resources';
import { httpEvent, lambdaTestContext } from '../../support/http-events';
import { joseTokens } from '../../../shared/adapters/jwt/jose-token-service';
import { absentParts } from '../../support/absent-parts';

/**
 * Two handlers built from separate containers over one table, as two Lambda instances of a deployment are: the
 * limit is the deployment's, not the instance's.
 */
describe('rate limits across handler instances', () => {
  const env = parseEnv(commonEnvSchema, { RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_BURST: '4' });
  let first: AppContainer;
  let second: AppContainer;
  let token: string;

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    const tokens = joseTokens(async () => new TextEncoder().encode('integration-test-signing-key-of-32-bytes'));
    first = buildAppContainer({
    ...absentParts(), db, tableName, tokens, env, healthProbes: [], serving: requestServing });
    second = buildAppContainer({
    ...absentParts(), db, tableName, tokens, env, healthProbes: [], serving: requestServing });
    const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-password' };
    await registerUser(first, alice);
    token = (await login(first, alice)).token;
  });

  it('shares one burst between two instances', async () => {
    const [a, b] = [createSettingsHandler(first), createSettingsHandler(second)];
    const request = () => httpEvent('GET /api/settings', { headers: { authorization: `Bearer ${token}` } });

    const statuses: number[] = [];
    for (const handler of [a, b, a, b, a]) statuses.push((await handler(request(), lambdaTestContext)).statusCode);

    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
