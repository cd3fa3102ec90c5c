import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthHandler } from '../../functions/auth/handler';
import { lazyOpenIdClient } from '../../shared/adapters/oidc/lazy-openid-client';
import type { AppContainer } from '../../shared/container/app-container';
import { buildAppContainer } from '../../shared/container/build-app-container';
import { commonEnvSchema, parseEnv } from '../../shared/container/config';
import { requestServing } from '../../shared/container/request-serving';
import { freePort } from '../../shared/local/emulators/ports';
import { freshTable } from '../support/aws-resources';
import { httpEvent, lambdaTestContext } from '../support/http-events';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { joseTokens } from '../../shared/adapters/jwt/jose-token-service';

/** The workspace first logins join (OIDC_WORKSPACE_ID). */
const SSO_WORKSPACE = crypto.randomUUID();

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
        { sub: 'sam-a', email: 'sam.a@corp.example', preferred_username: 'sam' },
        { sub: 'sam-b', email: 'sam.b@corp.example', preferred_username: 'sam' },
        { sub: 'twin', email: 'twin@corp.example', preferred_username: 'twin' },
        { sub: 'no-email', preferred_username: 'nomail' },
        { sub: 'unverified', email: 'unverified@corp.example', email_verified: false },
      ],
    });
    const { db, tableName } = await freshTable();
    container = buildAppContainer({
      db,
      tableName,
      tokens: joseTokens(async () => new TextEncoder().encode('integration-test-signing-key-of-32-bytes')),
      oidcClient: lazyOpenIdClient,
      serving: requestServing,
      env: parseEnv(commonEnvSchema, {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: 'docservice',
        OIDC_CLIENT_SECRET: 'docservice-secret',
        OIDC_REDIRECT_URI: REDIRECT_URI,
        OIDC_FRONTEND_URL: FRONTEND_URL,
        OIDC_SCOPES: 'openid email profile groups',
        OIDC_ROLE_CLAIM: 'groups',
        OIDC_ROLE_MAP: 'doc-editors=editor,doc-admins=admin',
        OIDC_WORKSPACE_ID: SSO_WORKSPACE,
      }),
      healthProbes: [],
    });
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
  const userOf = async (response: Awaited<ReturnType<typeof signIn>>) => {
    const token = new URLSearchParams(new URL(response.headers['location']!).hash.slice(1)).get('token')!;
    return container.users.findById((await container.authenticate(token)).userId);
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

  it('puts a first login into the configured workspace', async () => {
    const user = await userOf(await signIn('plain-1'));

    expect(user?.workspace_id).toBe(SSO_WORKSPACE);
  });

  it('gives a second person with a taken username the name with a suffix', async () => {
    const first = await userOf(await signIn('sam-a'));

    const second = await userOf(await signIn('sam-b'));

    expect(first?.username).toBe('sam');
    expect(second?.username).toBe('sam-2');
  });

  it('creates one user when the same person\'s first two logins complete at once', async () => {
    const callbacks = await Promise.all([callbackFor('twin'), callbackFor('twin')]);

    const responses = await Promise.all(callbacks.map(callRuntime));

    expect(responses.map((r) => r.statusCode)).toEqual([302, 302]);
    const [one, other] = await Promise.all(responses.map(userOf));
    expect(one?.id).toBe(other?.id);
  });

  it.each([
    ['shares no email', 'no-email', 'email'],
    ['marks the email unverified', 'unverified', 'email_verified'],
  ])('refuses a first login whose provider %s with 401', async (_, account, claim) => {
    const response = await signIn(account);

    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body as string).error.details).toEqual({ claim });
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
