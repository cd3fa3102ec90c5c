import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/zod';
import type { Principal } from '../../../shared/domain/principal';
import { AppError, unauthorized } from '../../../shared/domain/errors';
import { httpHandler } from '../../../shared/http/pipeline';
import { json } from '../../../shared/http/responses';
import { route } from '../../../shared/http/route';
import { httpEvent, lambdaTestContext } from '../../support/http-events';

const viewer: Principal = {
  userId: 'u-1',
  username: 'vera',
  email: 'vera@example.com',
  role: 'viewer',
  workspaceId: 'w-1',
  jti: 'j-1',
  tokenExpiresAt: new Date(Date.now() + 60_000),
};

const handler = httpHandler({
  corsOrigins: ['https://app.example.com'],
  authenticate: async (token) => {
    if (token === 'viewer-token') return viewer;
    throw unauthorized('The token is not valid');
  },
  routes: [
    route({
      key: 'POST /api/things',
      access: 'public',
      body: z.strictObject({ name: z.string().check(z.minLength(1)), count: z.number().check(z.int(), z.lte(100)) }),
      handle: async ({ body }) => json(201, body),
    }),
    route({
      key: 'GET /api/things',
      access: 'public',
      query: z.strictObject({ page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1) }),
      handle: async ({ query }) => json(200, query),
    }),
    route({
      key: 'PUT /api/things/{id}',
      access: 'public',
      params: z.strictObject({ id: z.string().check(z.maxLength(40)) }),
      body: z.strictObject({ tags: z.record(z.string(), z.unknown()) }),
      handle: async ({ body }) => json(200, body),
    }),
    route({ key: 'GET /api/mine', access: 'viewer', handle: async ({ principal }) => json(200, { user: principal.username }) }),
    route({ key: 'GET /api/admin-only', access: 'admin', handle: async () => json(200, {}) }),
    route({
      key: 'GET /api/broken',
      access: 'public',
      handle: async () => {
        throw new Error('database password is hunter2 at /srv/secret.ts:12');
      },
    }),
    route({
      key: 'GET /api/missing',
      access: 'public',
      handle: async () => {
        throw new AppError('NOT_FOUND', 'Thing not found', { id: 'x' });
      },
    }),
  ],
});

const call = async (...args: Parameters<typeof httpEvent>) => {
  const event = httpEvent(...args);
  const response = await handler(event, lambdaTestContext);
  return { event, response, body: response.body ? JSON.parse(response.body) : undefined };
};

describe('HTTP pipeline', () => {
  it('answers a valid JSON request through the route with its parsed body', async () => {
    const { response, body } = await call('POST /api/things', { body: { name: 'a', count: 2 } });

    expect(response.statusCode).toBe(201);
    expect(body).toEqual({ name: 'a', count: 2 });
  });

  it('returns the request id as a header and in the error body', async () => {
    const { event, response, body } = await call('GET /api/missing');

    expect(response.headers['x-request-id']).toBe(event.requestContext.requestId);
    expect(body.error.request_id).toBe(event.requestContext.requestId);
  });

  it('shapes domain errors as the P error body with code, message, details and timestamp', async () => {
    const { response, body } = await call('GET /api/missing');

    expect(response.statusCode).toBe(404);
    expect(body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Thing not found', details: { id: 'x' } });
    expect(new Date(body.error.timestamp).toString()).not.toBe('Invalid Date');
  });

  it('answers an unknown route with 404 NOT_FOUND naming the method and path', async () => {
    const { response, body } = await call('$default', { path: '/api/nowhere' });

    expect(response.statusCode).toBe(404);
    expect(body.error).toMatchObject({ code: 'NOT_FOUND', details: { method: 'GET', path: '/api/nowhere' } });
  });

  it('refuses malformed JSON with 400 VALIDATION_ERROR on the body field', async () => {
    const { response, body } = await call('POST /api/things', {
      rawBody: '{"name": "a",',
      headers: { 'content-type': 'application/json' },
    });

    expect(response.statusCode).toBe(400);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body', reason: 'is not valid JSON' } });
  });

  it('refuses a body of another content type with 400 naming content-type', async () => {
    const { response, body } = await call('POST /api/things', {
      rawBody: 'name=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

    expect(response.statusCode).toBe(400);
    expect(body.error.details.field).toBe('content-type');
  });

  it('refuses a missing body with 400 naming the body', async () => {
    const { response, body } = await call('POST /api/things', { headers: { 'content-type': 'application/json' } });

    expect(response.statusCode).toBe(400);
    expect(body.error.details).toMatchObject({ field: 'body', reason: 'is missing' });
  });

  it('lists every invalid and unknown field in the validation details', async () => {
    const { response, body } = await call('POST /api/things', { body: { name: '', count: 500, colour: 'red' } });

    expect(response.statusCode).toBe(400);
    const fields = body.error.details.issues.map((issue: { field: string }) => issue.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'count', 'colour']));
  });

  it('validates and coerces query parameters', async () => {
    const ok = await call('GET /api/things', { query: { page: '3' } });
    const bad = await call('GET /api/things', { query: { page: 'zero' } });

    expect(ok.body).toEqual({ page: 3 });
    expect(bad.response.statusCode).toBe(400);
    expect(bad.body.error.details.field).toBe('page');
  });

  it('answers 401 UNAUTHORIZED on a protected route without a bearer token', async () => {
    const { response, body } = await call('GET /api/mine');

    expect(response.statusCode).toBe(401);
    expect(body.error.code).toBe('UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED when the token is refused', async () => {
    const { response } = await call('GET /api/mine', { headers: { authorization: 'Bearer forged' } });

    expect(response.statusCode).toBe(401);
  });

  it('passes the authenticated caller to the route', async () => {
    const { body } = await call('GET /api/mine', { headers: { authorization: 'Bearer viewer-token' } });

    expect(body).toEqual({ user: 'vera' });
  });

  it('answers 403 FORBIDDEN when the caller lacks the required role', async () => {
    const { response, body } = await call('GET /api/admin-only', { headers: { authorization: 'Bearer viewer-token' } });

    expect(response.statusCode).toBe(403);
    expect(body.error).toMatchObject({ code: 'FORBIDDEN', details: { required_role: 'admin', role: 'viewer' } });
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR that reveals nothing of it', async () => {
    const { response } = await call('GET /api/broken');

    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/hunter2|secret\.ts|Error:/);
    expect(JSON.parse(response.body!).error).toMatchObject({ code: 'INTERNAL_ERROR', details: {} });
  });

  it('adds CORS headers for an allowed origin and none for another', async () => {
    const allowed = await call('GET /api/things', { headers: { origin: 'https://app.example.com' } });
    const other = await call('GET /api/things', { headers: { origin: 'https://evil.example.com' } });

    expect(allowed.response.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(other.response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a CORS preflight on an unknown route key with 204 and the allowed methods', async () => {
    const event = httpEvent('$default', { path: '/api/things', headers: { origin: 'https://app.example.com' } });
    event.requestContext.http.method = 'OPTIONS';

    const response = await handler(event, lambdaTestContext);

    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-methods']).toContain('PUT');
  });
});

describe('HTTP pipeline: input refused on every route, before its schema', () => {
  const putTags = async (rawBody: string) => {
    const event = httpEvent('PUT /api/things/{id}', { rawBody, headers: { 'content-type': 'application/json' } });
    event.pathParameters = { id: '7' };
    const response = await handler(event, lambdaTestContext);
    return { response, body: JSON.parse(response.body!) };
  };

  it.each(['__proto__', 'constructor'])('refuses %s as a JSON key at any depth with 400 naming its path', async (key) => {
    const { response, body } = await putTags(`{"tags":{"${key}":{"polluted":"yes"}}}`);

    expect(response.statusCode).toBe(400);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: `tags.${key}`, reason: expect.stringMatching(/reserved/) } });
  });

  it('keeps prototype as an ordinary key', async () => {
    const { response, body } = await putTags('{"tags":{"prototype":"v2"}}');

    expect(response.statusCode).toBe(200);
    expect(body).toEqual({ tags: { prototype: 'v2' } });
  });

  it('refuses a NUL character in a JSON string, naming the field', async () => {
    const { response, body } = await putTags('{"tags":{"a":["ok","x\\u0000y"]}}');

    expect(response.statusCode).toBe(400);
    expect(body.error.details).toMatchObject({ field: 'tags.a.1', reason: expect.stringMatching(/NUL/) });
  });

  it.each([
    ['a value', '{"tags":{"a":"x\\ud800"}}', 'tags.a'],
    ['a key', '{"tags":{"\\udc00":"x"}}', 'tags.\udc00'],
  ])('refuses an unpaired surrogate in %s', async (_, rawBody, field) => {
    const { response, body } = await putTags(rawBody);

    expect(response.statusCode).toBe(400);
    expect(body.error.details).toMatchObject({ field, reason: expect.stringMatching(/surrogate/) });
  });

  it('accepts characters outside the BMP, whose surrogates are paired', async () => {
    const { response, body } = await putTags('{"tags":{"a":"\\ud83d\\ude00"}}');

    expect(response.statusCode).toBe(200);
    expect(body.tags.a).toBe('😀');
  });

  it('refuses input nested deeper than 32 levels', async () => {
    const { response, body } = await putTags(`{"tags":{"a":${'['.repeat(40)}${']'.repeat(40)}}}`);

    expect(response.statusCode).toBe(400);
    expect(body.error.details.reason).toMatch(/deeper than 32/);
  });

  it('refuses __proto__ as a query parameter like any unknown one', async () => {
    // A computed key is an own property, as JSON.parse makes it in the event API Gateway sends.
    const { response, body } = await call('GET /api/things', { query: { ['__proto__']: '1' } });

    expect(response.statusCode).toBe(400);
    expect(body.error.details.field).toBe('__proto__');
  });

  it('refuses a query parameter on a route that declares none', async () => {
    const { response, body } = await call('GET /api/mine', { query: { page: '2' }, headers: { authorization: 'Bearer viewer-token' } });

    expect(response.statusCode).toBe(400);
    expect(body.error.details).toMatchObject({ field: 'page', reason: 'is not a known field' });
  });

  it('refuses a NUL character in a query value and in a path parameter', async () => {
    const query = await call('GET /api/things', { query: { page: '1\u0000' } });
    const event = httpEvent('PUT /api/things/{id}', { body: { tags: {} } });
    event.pathParameters = { id: 'a\u0000b' };
    const path = await handler(event, lambdaTestContext);

    expect(query.response.statusCode).toBe(400);
    expect(query.body.error.details).toMatchObject({ field: 'page', reason: expect.stringMatching(/NUL/) });
    expect(path.statusCode).toBe(400);
    expect(JSON.parse(path.body!).error.details).toMatchObject({ field: 'id', reason: expect.stringMatching(/NUL/) });
  });
});

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

const tokenHandler = httpHandler({
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

const callWithToken = async (routeKey: string, token: string) => {
  const response = await tokenHandler(httpEvent(routeKey, { headers: { authorization: `Bearer ${token}` } }), lambdaTestContext);
  return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined };
};

describe('HTTP pipeline with API tokens', () => {
  it('lets a token do what its capped role allows', async () => {
    expect((await callWithToken('GET /api/docs', 'dst_token')).status).toBe(200);
    expect((await callWithToken('POST /api/docs', 'dst_token')).status).toBe(201);
  });

  it("refuses what the token's scopes do not allow with 403 naming them", async () => {
    const members = await callWithToken('GET /api/members', 'dst_token');
    const machine = await callWithToken('GET /api/machine', 'dst_token');

    expect(members.status).toBe(403);
    expect(members.body.error.details).toEqual({ required_role: 'admin', role: 'editor', token_scopes: ['write'] });
    expect(machine.status).toBe(403);
    expect(machine.body.error.details).toMatchObject({ required_role: 'operator', token_scopes: ['write'] });
  });

  it('refuses a route that needs a session to any token, with reason session_required, and serves it to a session', async () => {
    const refused = await callWithToken('POST /api/secrets', 'dst_token');

    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'session_required' } });
    expect((await callWithToken('POST /api/secrets', 'session')).status).toBe(201);
    expect((await callWithToken('GET /api/members', 'session')).status).toBe(200);
  });

  it("refuses a read token a viewer's write with reason read_scope, and lets it read", async () => {
    const write = await callWithToken('PUT /api/preferences', 'dst_read');

    expect(write.status).toBe(403);
    expect(write.body.error.details).toEqual({ reason: 'read_scope', token_scopes: ['read'] });
    expect((await callWithToken('GET /api/docs', 'dst_read')).status).toBe(200);
    expect((await callWithToken('PUT /api/preferences', 'dst_token')).status).toBe(200);
  });
});
