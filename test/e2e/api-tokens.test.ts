import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { ChannelClient } from '../support/ws-client';
import { E2E_ADMIN } from './global-setup';
import { ROUTE_CONTRACTS } from '../../functions/route-contracts';
import { hasRole } from '../../shared/domain/principal';
import { SCOPE_ROLE, type TokenScope } from '../../shared/domain/tokens/ports';

const baseUrl = inject('baseUrl');

/** Personal API tokens (issue 36): made with a session, used as a bearer token, never above their user's role. */
describe('API tokens', () => {
  const anonymous = new ApiClient(baseUrl);
  /** A workspace of its own, whose admin makes the members. */
  let admin: ApiClient;
  const opened: ChannelClient[] = [];

  const mint = async (client: ApiClient, scopes: string[], extra: Record<string, unknown> = {}) => {
    const created = await client.post('/api/tokens', { name: `token ${scopes.join('+')}`, scopes, ...extra });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, api: anonymous.withToken(created.body.token as string), token: created.body.token as string };
  };
  const upload = (client: ApiClient) => {
    const form = new FormData();
    form.append('ocr_enabled', 'false');
    form.append('file', new Blob([pngImage(8, 8)]), 'pixel.png');
    return client.upload('/api/documents/upload', form);
  };

  beforeAll(async () => {
    ({ client: admin } = await anonymous.signUp('tokens'));
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  });

  it('shows the secret once, at its creation; listings never do', async () => {
    const created = await admin.post('/api/tokens', { name: 'scanner', scopes: ['write'] });
    const listed = await admin.get('/api/tokens');

    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^dst_[0-9A-Za-z]{49}$/);
    expect(created.body).toMatchObject({ name: 'scanner', scopes: ['write'], prefix: created.body.token.slice(0, 8), last_used_at: null });
    const row = listed.body.tokens.find((t: { id: string }) => t.id === created.body.id);
    expect(row).toMatchObject({ name: 'scanner', prefix: created.body.token.slice(0, 8), expires_at: created.body.expires_at });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
    expect(JSON.stringify(listed.body)).not.toMatch(/hash/);
  });

  it('lets a read token of an editor read but not upload, and counts its requests against its user', async () => {
    const { client: editor } = await admin.addMember('editor', 'reader');
    const { api } = await mint(editor, ['read']);

    const documents = await api.get('/api/documents');
    const uploaded = await upload(api);

    expect(documents.status).toBe(200);
    expect(documents.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect(uploaded.status).toBe(403);
    expect(uploaded.body.error.details).toMatchObject({ required_role: 'editor', role: 'viewer', token_scopes: ['read'] });
  });

  it('lets a write token of an editor upload, not manage users', async () => {
    const { client: editor } = await admin.addMember('editor', 'writer');
    const { api } = await mint(editor, ['write']);

    expect((await upload(api)).status).toBe(201);
    expect((await api.get('/api/users')).status).toBe(403);
  });

  it("lets an admin's admin token list users, never make tokens, change the password, manage users or log out", async () => {
    const { client: second, password } = await admin.addMember('admin', 'admin2');
    const { api } = await mint(second, ['admin']);

    const users = await api.get('/api/users');
    const refusals = await Promise.all([
      api.post('/api/tokens', { name: 'another', scopes: ['admin'] }),
      api.get('/api/tokens'),
      api.post('/api/users/change-password', { current_password: password, new_password: `${password}-stolen` }),
      api.post('/api/users', { username: 'minted_by_token', email: 'minted@example.com', password: 'a long passphrase', role: 'admin' }),
      api.post('/api/auth/logout', {}),
    ]);

    expect(users.status).toBe(200);
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'session_required' } });
    }
  });

  it("lets an admin's admin token manage webhooks (no session needed), and refuses the admin's read and write tokens every webhook route", async () => {
    const { api } = await mint(admin, ['admin']);
    const { api: reader } = await mint(admin, ['read']);
    const { api: writer } = await mint(admin, ['write']);

    // Nothing listens on port 9: the ping fails and is retried, out of this test's way.
    const created = await api.post('/api/webhooks', { url: 'http://127.0.0.1:9/token-hook', events: ['document.uploaded'] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.id as string;
    const refused: string[] = [];
    for (const contract of Object.values(ROUTE_CONTRACTS.webhooks)) {
      const [method, template] = contract.key.split(' ') as [string, string];
      const path = template.replace('{id}', id);
      const body = method === 'POST' && !path.includes(id) ? { url: 'http://127.0.0.1:9/x', events: ['ocr.failed'] } : method === 'PUT' ? { active: false } : undefined;
      for (const [scope, client] of [['read', reader], ['write', writer]] as const) {
        const response = await client.request(method, path, body);
        if (response.status !== 403 || response.body.error.code !== 'FORBIDDEN') refused.push(`${scope} ${contract.key}: ${response.status}`);
      }
    }
    const answers = {
      list: (await api.get('/api/webhooks')).status,
      get: (await api.get(`/api/webhooks/${id}`)).status,
      update: (await api.put(`/api/webhooks/${id}`, { description: 'set by a token' })).status,
      rotate: (await api.post(`/api/webhooks/${id}/rotate-secret`)).status,
      test: (await api.post(`/api/webhooks/${id}/test`)).status,
      deliveries: (await api.get(`/api/webhooks/${id}/deliveries`)).status,
      delete: (await api.delete(`/api/webhooks/${id}`)).status,
    };

    expect(refused).toEqual([]);
    expect(answers).toEqual({ list: 200, get: 200, update: 200, rotate: 200, test: 202, deliveries: 200, delete: 204 });
  });

  it("follows its user: a demoted user's write token is 403 on the next request, a deleted user's is 401", async () => {
    const { client: editor, user } = await admin.addMember('editor', 'demoted');
    const { api } = await mint(editor, ['write']);
    expect((await upload(api)).status).toBe(201);

    expect((await admin.put(`/api/users/${user.id}`, { role: 'viewer' })).status).toBe(200);
    expect((await upload(api)).status).toBe(403);
    expect((await api.get('/api/documents')).status).toBe(200);

    expect((await admin.delete(`/api/users/${user.id}`)).status).toBe(204);
    expect((await api.get('/api/documents')).status).toBe(401);
    const listed = await admin.get('/api/tokens?all=true');
    expect(listed.body.tokens.map((t: { user_id: string }) => t.user_id)).not.toContain(user.id);
  });

  it('is 401 on the request after its revocation, by its user or by an admin, and after its expiry', async () => {
    const { client: viewer } = await admin.addMember('viewer', 'revoked');
    const own = await mint(viewer, ['read']);
    const theirs = await mint(viewer, ['read']);
    const brief = await mint(viewer, ['read'], { expires_at: new Date(Date.now() + 1500).toISOString() });
    expect((await own.api.get('/api/labels')).status).toBe(200);
    expect((await brief.api.get('/api/labels')).status).toBe(200);

    expect((await viewer.delete(`/api/tokens/${own.id}`)).status).toBe(204);
    expect((await viewer.delete(`/api/tokens/${own.id}`)).status).toBe(404);
    expect((await own.api.get('/api/labels')).status).toBe(401);

    const all = await admin.get('/api/tokens?all=true');
    expect(all.body.tokens.map((t: { id: string }) => t.id)).toContain(theirs.id);
    expect((await viewer.get('/api/tokens?all=true')).status).toBe(403);
    expect((await admin.delete(`/api/tokens/${theirs.id}`)).status).toBe(204);
    expect((await theirs.api.get('/api/labels')).status).toBe(401);

    await new Promise((resolve) => setTimeout(resolve, 1600));
    const expired = await brief.api.get('/api/labels');
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toBe('The token has expired');
  });

  it("gives the operator's routes to the operator's admin token only", async () => {
    const operator = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const { api: adminToken, id: adminId } = await mint(operator, ['admin']);
    const { api: writeToken, id: writeId } = await mint(operator, ['write']);

    expect((await adminToken.get('/api/metrics/system')).status).toBe(200);
    expect((await writeToken.get('/api/metrics/system')).status).toBe(403);
    for (const id of [adminId, writeId]) expect((await operator.delete(`/api/tokens/${id}`)).status).toBe(204);
  });

  it('keeps last_used_at and refuses a token that is not one (bad checksum) with 401', async () => {
    const { api, id, token } = await mint(admin, ['read']);
    await api.get('/api/labels');
    const row = (await admin.get('/api/tokens')).body.tokens.find((t: { id: string }) => t.id === id);
    expect(row.last_used_at).not.toBeNull();

    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await anonymous.withToken(forged).get('/api/labels')).status).toBe(401);
  });

  it('refuses an expiry beyond API_TOKEN_MAX_DAYS or in the past with 400 on expires_at', async () => {
    const far = await admin.post('/api/tokens', { name: 'forever', scopes: ['read'], expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString() });
    const past = await admin.post('/api/tokens', { name: 'past', scopes: ['read'], expires_at: '2020-01-01T00:00:00Z' });
    const noScope = await admin.post('/api/tokens', { name: 'none', scopes: [] });

    expect(far.status).toBe(400);
    expect(far.body.error.details.field).toBe('expires_at');
    expect(past.status).toBe(400);
    expect(noScope.status).toBe(400);
    expect(noScope.body.error.details.field).toBe('scopes');
  });

  it('authenticates a WebSocket connection, which closes when the token is revoked', async () => {
    const { api, id, token } = await mint(admin, ['read']);
    expect((await api.get('/api/labels')).status).toBe(200);
    const channel = await ChannelClient.authenticated(baseUrl, token);
    opened.push(channel);

    expect((await admin.delete(`/api/tokens/${id}`)).status).toBe(204);
    const { code } = await channel.closed;

    expect(code).toBe(1000);
    expect(channel.received.at(-1)).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED' } });
    const refused = await ChannelClient.open(baseUrl);
    opened.push(refused);
    expect(await refused.auth(token)).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED' } });
  });
});

/**
 * Every P route, with a token of each scope held by an admin of a workspace of their own (not the operator): the
 * route refuses it with 403 exactly when the scope's role is below the route's (or the route is the operator's,
 * needs a session, or writes and the token may only read), and otherwise lets it past authorisation (whatever the request's made-up ids and empty
 * bodies then get: 400, 404, 429, 200 ...; never 401 or 403).
 */
describe('API tokens against every route', () => {
  const anonymous = new ApiClient(baseUrl);
  const routes = Object.values(ROUTE_CONTRACTS)
    .flatMap((group) => Object.values(group))
    .filter((contract) => contract.access !== 'public');

  it.each(['read', 'write', 'admin'] as TokenScope[])('holds a %s token to its scope on every route', async (scope) => {
    const { client: admin } = await anonymous.signUp(`matrix_${scope}`);
    const created = await admin.post('/api/tokens', { name: `matrix ${scope}`, scopes: [scope] });
    const api = anonymous.withToken(created.body.token);
    const outcomes: string[] = [];
    const unexpected: string[] = [];
    for (const contract of routes) {
      const [method, template] = contract.key.split(' ') as [string, string];
      const path = template.replace(/\{[^}]+\}/g, () => crypto.randomUUID());
      const response = await api.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      const readsOnly = scope === 'read' && !contract.key.startsWith('GET ');
      const refused = contract.session === true || contract.access === 'operator' || readsOnly || !hasRole(SCOPE_ROLE[scope], contract.access as never);
      outcomes.push(`${contract.key} ${response.status}`);
      const ok = refused
        ? response.status === 403 && (contract.session ? response.body.error.details.reason === 'session_required' : true)
        : response.status !== 401 && response.status !== 403;
      if (!ok) unexpected.push(`${contract.key}: ${response.status} ${JSON.stringify(response.body?.error ?? '')}`);
    }
    expect(unexpected).toEqual([]);
    expect(outcomes.length).toBe(routes.length);
  });
});
