import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthHandler } from '../../functions/auth/handler';
import { buildAppContainer, type AppContainer } from '../../shared/container/app-container';
import { commonEnvSchema, parseEnv } from '../../shared/container/config';
import { freePort } from '../../shared/local/emulators/ports';
import { freshTable } from '../support/aws-resources';
import { httpEvent, lambdaTestContext } from '../support/http-events';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';

const REDIRECT_URI = 'https://app.example/api/auth/oidc/callback';
const FRONTEND_URL = 'https://app.example/signed-in';

/**
 * The SSO routes in process, on DynamoDB Local, against a real OpenID Provider on loopback: what the e2e suite
 * cannot reach with one runtime (the front-end redirect, the role mapping).
 */
describe('OIDC login through the auth handler', () => {
  let provider: TestOidcProvider;
  let container: AppContainer;
  let handler: ReturnType<typeof createAuthHandler>;

  beforeAll(async () => {
    provider = await startOidcProvider({
      port: await freePort(),
      clients: [{ client_id: 'docservice', client_secret: 'docservice-secret', redirect_uris: [REDIRECT_URI] }],
      accounts: [
        { sub: 'editor-1', email: 'eve@corp.example', email_verified: true, preferred_username: 'eve', groups: ['staff', 'doc-editors'] },
        { sub: 'plain-1', email: 'paul@corp.example', preferred_username: 'paul', groups: ['staff'] },
      ],
    });
    const { db, tableName } = await freshTable();
    container = buildAppContainer({
      db,
      tableName,
      jwtKey: async () => new TextEncoder().encode('integration-test-signing-key-of-32-bytes'),
      env: parseEnv(commonEnvSchema, {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: 'docservice',
        OIDC_CLIENT_SECRET: 'docservice-secret',
        OIDC_REDIRECT_URI: REDIRECT_URI,
        OIDC_FRONTEND_URL: FRONTEND_URL,
        OIDC_SCOPES: 'openid email profile groups',
        OIDC_ROLE_CLAIM: 'groups',
        OIDC_ROLE_MAP: 'doc-editors=editor,doc-admins=admin',
      }),
      healthProbes: [],
    });
    handler = createAuthHandler(container);
  });

  afterAll(async () => {
    await provider?.stop();
  });

  const signIn = async (loginHint: string) => {
    const login = await handler(httpEvent('GET /api/auth/oidc/login'), lambdaTestContext);
    const callback = await signInAtProvider(login.headers['location']!, REDIRECT_URI, loginHint);
    return handler(httpEvent('GET /api/auth/oidc/callback', { query: Object.fromEntries(callback.searchParams) }), lambdaTestContext);
  };

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

  it('gives a first login the role its group claim maps to', async () => {
    const response = await signIn('editor-1');

    const token = new URLSearchParams(new URL(response.headers['location']!).hash.slice(1)).get('token')!;
    const principal = await container.authenticate(token);
    expect(principal.role).toBe('editor');
    expect(await container.users.findByIdentity(provider.issuer, 'editor-1')).toMatchObject({ username: 'eve', role: 'editor' });
  });

  it('sends the authorization request with PKCE S256, a state and a nonce', async () => {
    const login = await handler(httpEvent('GET /api/auth/oidc/login'), lambdaTestContext);

    const url = new URL(login.headers['location']!);
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
});
