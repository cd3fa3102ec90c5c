import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_LOGIN_TTL_SECONDS, startOidcLogin } from '../../../../shared/domain/sso/start-oidc-login';
import type { TestOidcProvider } from '../../../support/oidc-provider';
import { REDIRECT_URI, ssoWorld, testProvider } from './sso-world';

/** The start of a single sign-on, against a real OpenID Provider, its pending login on DynamoDB Local. */
describe('startOidcLogin', () => {
  let provider: TestOidcProvider;

  beforeAll(async () => {
    provider = await testProvider();
  });

  afterAll(async () => {
    await provider?.stop();
  });

  it("answers the provider's authorization URL, with PKCE S256, a state and a nonce", async () => {
    // Arrange
    const { deps } = await ssoWorld(provider);

    // Act
    const { redirectTo } = await startOidcLogin(deps);

    // Assert
    const url = new URL(redirectTo);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'docservice',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid email profile groups',
    });
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{32,}$/u);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{32,}$/u);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/u);
  });

  it('remembers the state with its nonce and PKCE verifier for ten minutes', async () => {
    // Arrange
    const { deps, stores } = await ssoWorld(provider);

    // Act
    const { redirectTo } = await startOidcLogin(deps);

    // Assert
    const url = new URL(redirectTo);
    const pending = await deps.oidc.pendingLogins.take(url.searchParams.get('state')!);
    const now = stores.clock.now().getTime();
    expect(pending).toMatchObject({
      nonce: url.searchParams.get('nonce'),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + PENDING_LOGIN_TTL_SECONDS * 1000).toISOString(),
    });
    expect(pending!.code_verifier).toMatch(/^[\w-]{43,}$/u);
  });

  it('gives every start a state of its own', async () => {
    // Arrange
    const { deps } = await ssoWorld(provider);

    // Act
    const starts = await Promise.all([startOidcLogin(deps), startOidcLogin(deps)]);

    // Assert
    const [one, other] = starts.map(({ redirectTo }) => new URL(redirectTo).searchParams.get('state'));
    expect(one).not.toBe(other);
  });
});
