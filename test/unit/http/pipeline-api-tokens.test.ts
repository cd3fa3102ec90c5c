import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../shared/domain/principal';
import { httpHandler } from '../../../shared/http/pipeline';
import { json } from '../../../shared/http/responses';
import { route } from '../../../shared/http/route';
import { httpEvent, lambdaTestContext } from '../../support/http-events';

const session: Principal = {
  userId: 'u-1',
  username: 'ada',
  email: 'ada@example.com',
  role: 'admin',
  workspaceId: 'w-1',
  operator: true,
  jti: 'j-1',
  tokenExpiresAt: new Date(Date.now() + 60_000),
};
/** The same user through a `write` API token: authentication has capped the role already. */
const viaToken: Principal = { ...session, role: 'editor', operator: false, jti: 'api-token:t-1', apiToken: { id: 't-1', scopes: ['write'] } };

/** A viewer's `read` token: it may read what a viewer reads, and write nothing. */
const readToken: Principal = { ...session, role: 'viewer', operator: false, jti: 'api-token:t-2', apiToken: { id: 't-2', scopes: ['read'] } };

const handler = httpHandler({
  corsOrigins: '*',
  authenticate: async (token) => (token === 'session' ? session : token === 'dst_read' ? readToken : viaToken),
  routes: [
    route({ key: 'GET /api/docs', access: 'viewer', handle: async () => json(200, {}) }),
    route({ key: 'POST /api/docs', access: 'editor', handle: async () => json(201, {}) }),
    route({ key: 'GET /api/members', access: 'admin', handle: async () => json(200, {}) }),
    route({ key: 'GET /api/machine', access: 'operator', handle: async () => json(200, {}) }),
    route({ key: 'POST /api/secrets', access: 'viewer', session: true, handle: async () => json(201, {}) }),
    route({ key: 'PUT /api/preferences', access: 'viewer', handle: async () => json(200, {}) }),
  ],
});

const call = async (routeKey: string, token: string) => {
  const response = await handler(httpEvent(routeKey, { headers: { authorization: `Bearer ${token}` } }), lambdaTestContext);
  return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined };
};

describe('HTTP pipeline with API tokens', () => {
  it('lets a token do what its capped role allows', async () => {
    expect((await call('GET /api/docs', 'dst_token')).status).toBe(200);
    expect((await call('POST /api/docs', 'dst_token')).status).toBe(201);
  });

  it("refuses what the token's scopes do not allow with 403 naming them", async () => {
    const members = await call('GET /api/members', 'dst_token');
    const machine = await call('GET /api/machine', 'dst_token');

    expect(members.status).toBe(403);
    expect(members.body.error.details).toEqual({ required_role: 'admin', role: 'editor', token_scopes: ['write'] });
    expect(machine.status).toBe(403);
    expect(machine.body.error.details).toMatchObject({ required_role: 'operator', token_scopes: ['write'] });
  });

  it('refuses a route that needs a session to any token, with reason session_required, and serves it to a session', async () => {
    const refused = await call('POST /api/secrets', 'dst_token');

    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'session_required' } });
    expect((await call('POST /api/secrets', 'session')).status).toBe(201);
    expect((await call('GET /api/members', 'session')).status).toBe(200);
  });

  it("refuses a read token a viewer's write with reason read_scope, and lets it read", async () => {
    const write = await call('PUT /api/preferences', 'dst_read');

    expect(write.status).toBe(403);
    expect(write.body.error.details).toEqual({ reason: 'read_scope', token_scopes: ['read'] });
    expect((await call('GET /api/docs', 'dst_read')).status).toBe(200);
    expect((await call('PUT /api/preferences', 'dst_token')).status).toBe(200);
  });
});
