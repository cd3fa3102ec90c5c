import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../shared/local/emulators/ports';
import { ApiClient } from '../support/api-client';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

/** What the provider sends the browser back to; the test plays the browser and calls the runtime with it. */
const REDIRECT_URI = 'https://docs.example/api/auth/oidc/callback';
const CLIENT = { client_id: 'docservice', client_secret: 'docservice-secret', redirect_uris: [REDIRECT_URI] };
/** Another client of the same provider, whose tokens are not meant for this service. */
const OTHER_CLIENT = { client_id: 'other-app', client_secret: 'other-secret', redirect_uris: ['https://other.example/cb'] };

const ACCOUNTS = [
  { sub: 'alice-sub', email: 'alice@corp.example', email_verified: true, preferred_username: 'alice', name: 'Alice Liddell' },
  { sub: 'bob-sub', email: 'bob@corp.example', email_verified: true, preferred_username: 'bob' },
  { sub: 'carol-sub', email: 'carol@corp.example', email_verified: true, preferred_username: 'carol.sso' },
];

/**
 * Single sign-on against a real OpenID Provider (oidc-provider) on loopback and the local runtime started as
 * the README says, configured for it. The runtime starts before the provider, so the first login finds the
 * provider down.
 */
describe('OIDC single sign-on', () => {
  let providerPort: number;
  let runtime: RuntimeProcess;
  let api: ApiClient;
  let provider: TestOidcProvider | undefined;

  beforeAll(async () => {
    providerPort = await freePort();
    runtime = await startRuntimeProcess({
      env: {
        OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
        OIDC_CLIENT_ID: CLIENT.client_id,
        OIDC_CLIENT_SECRET: CLIENT.client_secret,
        OIDC_REDIRECT_URI: REDIRECT_URI,
      },
    });
    api = new ApiClient(runtime.baseUrl);
  });

  afterAll(async () => {
    await provider?.stop();
    await runtime?.stop();
  });

  const startLogin = () => fetch(`${runtime.baseUrl}/api/auth/oidc/login`, { redirect: 'manual' });

  /** The browser's trip: the runtime's login, the provider's pages, back to the callback URL (not yet called). */
  const callbackFor = async (loginHint: string) => {
    const login = await startLogin();
    return signInAtProvider(login.headers.get('location')!, REDIRECT_URI, loginHint);
  };

  const callRuntime = (callback: URL) => api.get(`/api/auth/oidc/callback${callback.search}`);

  describe('while the provider is down', () => {
    it('answers the login 503 SERVICE_UNAVAILABLE', async () => {
      const response = await api.get('/api/auth/oidc/login');

      expect(response.status).toBe(503);
      expect(response.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { feature: 'oidc' } });
    });
  });

  describe('with the provider up', () => {
    beforeAll(async () => {
      provider = await startOidcProvider({ port: providerPort, clients: [CLIENT, OTHER_CLIENT], accounts: ACCOUNTS });
    });

    it('redirects the login to the provider, uncached, once the provider answers', async () => {
      const response = await startLogin();

      expect(response.status).toBe(302);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('location')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${providerPort}/`, 'u'));
    });

    it('creates the user on the first login and answers a token that works on the API', async () => {
      const response = await callRuntime(await callbackFor('alice-sub'));

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        token: expect.any(String),
        expires_at: expect.any(String),
        user: { username: 'alice', email: 'alice@corp.example', role: 'viewer' },
      });
      const profile = await api.withToken(response.body.token).get('/api/users/profile');
      expect(profile.body).toMatchObject({ id: response.body.user.id, display_name: 'Alice Liddell' });
    });

    it('signs the same person in as the same user the second time', async () => {
      const first = await callRuntime(await callbackFor('bob-sub'));

      const second = await callRuntime(await callbackFor('bob-sub'));

      expect(second.status).toBe(200);
      expect(second.body.user.id).toBe(first.body.user.id);
    });

    it('refuses a callback whose state it never issued with 401', async () => {
      const callback = await callbackFor('alice-sub');
      callback.searchParams.set('state', 'forged-state-value');

      const response = await callRuntime(callback);

      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ code: 'UNAUTHORIZED', details: { field: 'state' } });
    });

    it('refuses a callback played a second time with 401', async () => {
      const callback = await callbackFor('alice-sub');
      expect((await callRuntime(callback)).status).toBe(200);

      const replay = await callRuntime(callback);

      expect(replay.status).toBe(401);
      expect(replay.body.error).toMatchObject({ code: 'UNAUTHORIZED', details: { field: 'state' } });
    });

    it('refuses an ID token issued for another client with 401', async () => {
      const callback = await callbackFor('alice-sub');
      provider!.spoilNextIdToken({ kind: 'audience', clientId: OTHER_CLIENT.client_id });

      const response = await callRuntime(callback);

      expect(response.status).toBe(401);
      expect(response.body.error.details.reason).toMatch(/"aud"/u);
    });

    it('refuses an expired ID token with 401', async () => {
      const callback = await callbackFor('alice-sub');
      provider!.spoilNextIdToken({ kind: 'expired', secondsAgo: 3600 });

      const response = await callRuntime(callback);

      expect(response.status).toBe(401);
      expect(response.body.error.details.reason).toMatch(/"exp"/u);
    });

    it('answers 401 with the provider\'s error when the provider refused the sign-in', async () => {
      const login = await startLogin();
      const state = new URL(login.headers.get('location')!).searchParams.get('state')!;

      const response = await api.get(`/api/auth/oidc/callback?error=access_denied&error_description=User+cancelled&state=${state}`);

      expect(response.status).toBe(401);
      expect(response.body.error.details).toMatchObject({ provider_error: 'access_denied', provider_error_description: 'User cancelled' });
    });

    it('answers 400 naming code when the callback has no code', async () => {
      const response = await api.get('/api/auth/oidc/callback?state=abc');

      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'code' } });
    });

    it('does not hand a local account with the same email to the SSO user: 409', async () => {
      const registered = await api.post('/api/auth/register', { username: 'carol_local', email: 'carol@corp.example', password: 'carol-password' });
      expect(registered.status).toBe(201);

      const response = await callRuntime(await callbackFor('carol-sub'));

      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'email' } });
      const local = await api.post('/api/auth/login', { username: 'carol_local', password: 'carol-password' });
      expect(local.body.user.id).toBe(registered.body.id);
    });
  });
});

describe('OIDC without configuration', () => {
  it.each(['/api/auth/oidc/login', '/api/auth/oidc/callback?code=c&state=s'])('answers %s 404 NOT_FOUND naming the feature', async (path) => {
    const response = await new ApiClient(inject('baseUrl')).get(path);

    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'NOT_FOUND', details: { feature: 'oidc', configured: false } });
  });
});
