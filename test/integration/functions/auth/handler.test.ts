import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthHandler, type AuthDeps } from '../../../../functions/auth/handler';
import { lazyOpenIdClient } from '../../../../shared/adapters/oidc/lazy-openid-client';
import { oidcServices } from '../../../../shared/container/kit/oidc';
import { noAuthenticationEvents } from '../../../../shared/domain/audit/ports';
import { freePort } from '../../../../shared/local/emulators/ports';
import { testKit } from '../../../support/test-kit';
import { httpEvent, lambdaTestContext } from '../../../support/http-events';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../../support/oidc-provider';

/** The workspace first logins join (OIDC_WORKSPACE_ID). */
const SSO_WORKSPACE = crypto.randomUUID();

const REDIRECT_URI = 'https://app.example/api/auth/oidc/callback';
const FRONTEND_URL = 'https://app.example/signed-in';

/**
 * The SSO routes in process, on DynamoDB Local, against a real OpenID Provider on loopback: what the e2e suite
 * cannot reach with one runtime (the front-end redirect). The use cases' rules are tested at their mirrored
 * paths (test/integration/domain/sso/).
 */
describe('OIDC login through the auth handler', () => {
  let provider: TestOidcProvider;
  let container: AuthDeps;
  let handler: ReturnType<typeof createAuthHandler>;

  beforeAll(async () => {
    provider = await startOidcProvider({
      port: await freePort(),
      clients: [{ client_id: 'docservice', client_secret: 'docservice-secret', redirect_uris: [REDIRECT_URI] }],
      accounts: [
        { sub: 'plain-1', email: 'paul@corp.example', preferred_username: 'paul', groups: ['staff'] },
        { sub: 'no-email', preferred_username: 'nomail' },
      ],
    });
    const kit = await testKit({
      env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'docservice',
      OIDC_CLIENT_SECRET: 'docservice-secret',
      OIDC_REDIRECT_URI: REDIRECT_URI,
      OIDC_FRONTEND_URL: FRONTEND_URL,
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ROLE_MAP: 'doc-editors=editor,doc-admins=admin',
      OIDC_WORKSPACE_ID: SSO_WORKSPACE,
    },
    });
    container = {
      ...kit.gate,
      passwords: kit.passwords,
      connections: kit.connections,
      quotaCounts: kit.quotaCounts,
      registrationMode: kit.env.REGISTRATION_MODE,
      refreshGraceSeconds: kit.env.JWT_REFRESH_GRACE_SECONDS,
      authEvents: noAuthenticationEvents,
      oidc: oidcServices({ table: kit.table, env: kit.env, clock: kit.clock, client: lazyOpenIdClient }),
    };
    await container.workspaces.create({ id: SSO_WORKSPACE, name: 'Corp', created_at: new Date().toISOString() });
    handler = createAuthHandler(container);
  });

  afterAll(async () => {
    await provider?.stop();
  });

  const callbackFor = async (loginHint: string) => {
    const login = await handler(httpEvent('GET /api/auth/oidc/login'), lambdaTestContext);
    return signInAtProvider(login.headers['location']!, REDIRECT_URI, loginHint);
  };
  const callRuntime = (callback: URL) =>
    handler(httpEvent('GET /api/auth/oidc/callback', { query: Object.fromEntries(callback.searchParams) }), lambdaTestContext);
  const signIn = async (loginHint: string) => callRuntime(await callbackFor(loginHint));

  it('sends the browser to the front end with the token and its expiry in the fragment', async () => {
    const response = await signIn('plain-1');

    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toBe('no-store');
    const location = new URL(response.headers['location']!);
    expect(location.origin + location.pathname).toBe(FRONTEND_URL);
    const fragment = new URLSearchParams(location.hash.slice(1));
    const principal = await container.authenticate(fragment.get('token')!);
    expect(principal.role).toBe('viewer');
    expect(Date.parse(fragment.get('expires_at')!)).toBeGreaterThan(Date.now());
  });

  it('answers a refused sign-in with a 401 P error body naming the claim', async () => {
    const response = await signIn('no-email');

    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body as string).error).toMatchObject({ code: 'UNAUTHORIZED', details: { claim: 'email' } });
  });
});
