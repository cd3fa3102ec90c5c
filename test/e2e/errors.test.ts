import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { rawExchange } from '../support/http-fuzz';
import { E2E_ADMIN } from './global-setup';

const anonymous = new ApiClient(inject('baseUrl'));

const expectValidationOf = (response: ApiResponse, field: string) => {
  expect(response.status).toBe(400);
  expect(response.body.error.code).toBe('VALIDATION_ERROR');
  expect(response.body.error.details.issues.map((issue: { field: string }) => issue.field)).toContain(field);
};

describe('the error body', () => {
  it('has code, message, details, timestamp and the request id of the X-Request-Id header', async () => {
    const response = await anonymous.get('/api/does-not-exist');

    expect(response.status).toBe(404);
    expect(response.body.error).toEqual({
      code: 'NOT_FOUND',
      message: expect.any(String),
      details: { method: 'GET', path: '/api/does-not-exist' },
      timestamp: expect.any(String),
      request_id: response.headers.get('x-request-id'),
    });
  });

  it('answers a known path with an unknown method as 404 NOT_FOUND', async () => {
    const response = await anonymous.request('DELETE', '/api/settings');

    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });
});

describe('request bodies', () => {
  it('refuses malformed JSON with 400 on the body', async () => {
    const response = await anonymous.request('POST', '/api/auth/login', undefined, {
      rawBody: '{"username": "a", ',
      headers: { 'content-type': 'application/json' },
    });

    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ field: 'body', reason: 'is not valid JSON' });
  });

  it('refuses a body that is not application/json with 400 on content-type', async () => {
    const response = await anonymous.request('POST', '/api/auth/login', undefined, {
      rawBody: 'username=a&password=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

    expect(response.status).toBe(400);
    expect(response.body.error.details.field).toBe('content-type');
  });

  it('answers a CORS preflight with 204 and the allowed methods and headers', async () => {
    const response = await anonymous.request('OPTIONS', '/api/settings', undefined, {
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PUT' },
    });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
  });
});

describe('registration errors', () => {
  it('names each missing or invalid field', async () => {
    const response = await anonymous.post('/api/auth/register', { username: 'x', email: 'not-an-email' });

    expectValidationOf(response, 'username');
    expectValidationOf(response, 'email');
    expectValidationOf(response, 'password');
  });

  it('refuses an unknown field such as role', async () => {
    const response = await anonymous.post('/api/auth/register', {
      username: 'sneaky_admin',
      email: 'sneaky@example.com',
      password: 'long-enough-password',
      role: 'admin',
    });

    expectValidationOf(response, 'role');
  });

  it('refuses an email that another user has with 409 on email', async () => {
    const { user } = await anonymous.signUp('owner');

    const response = await anonymous.post('/api/auth/register', {
      username: `copy_${Date.now()}`,
      email: user.email.toUpperCase(),
      password: 'long-enough-password',
    });

    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'email' } });
  });
});

describe('login errors', () => {
  it('answers an unknown user and a wrong password alike with 401', async () => {
    const { user } = await anonymous.signUp('known');

    const unknown = await anonymous.post('/api/auth/login', { username: 'nobody_here', password: 'whatever-pass' });
    const wrong = await anonymous.post('/api/auth/login', { username: user.username, password: 'wrong-password' });

    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body.error.code).toBe('UNAUTHORIZED');
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    expect(wrong.body.error.details).toEqual(unknown.body.error.details);
  });

  it('names OIDC as not configured', async () => {
    const response = await anonymous.get('/api/auth/oidc/login');

    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'NOT_FOUND', details: { feature: 'oidc', configured: false } });
    expect(response.body.error.message).toMatch(/OIDC/);
  });
});

describe('token errors', () => {
  it('refuses a token signed with another key', async () => {
    const forged = await new SignJWT({ role: 'admin', tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('someone')
      .setJti('forged')
      .setIssuer('docservice')
      .setAudience('docservice-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(64)));

    expect((await anonymous.withToken(forged).get('/api/users')).status).toBe(401);
    expect((await anonymous.withToken(forged).post('/api/auth/refresh')).status).toBe(401);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const { client } = await anonymous.signUp('alg');
    const profile = (await client.get('/api/users/profile')).body;
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: profile.id, role: 'admin', tv: 0, jti: 'n', iss: 'docservice', aud: 'docservice-api', iat: 1, exp: 9_999_999_999 })}.`;

    expect((await anonymous.withToken(unsigned).get('/api/users')).status).toBe(401);
  });

  it('refuses refresh without a token', async () => {
    const response = await anonymous.post('/api/auth/refresh');

    expect(response.status).toBe(401);
  });

  it('refuses logout without a token', async () => {
    expect((await anonymous.post('/api/auth/logout')).status).toBe(401);
  });
});

describe('profile and password errors', () => {
  it('refuses to take an email another user has', async () => {
    const first = await anonymous.signUp('first');
    const second = await anonymous.signUp('second');

    const response = await second.client.put('/api/users/profile', { email: first.user.email });

    expect(response.status).toBe(409);
    expect(response.body.error.details.field).toBe('email');
  });

  it('refuses an unknown profile field and an empty update', async () => {
    const { client } = await anonymous.signUp('profile');

    expectValidationOf(await client.put('/api/users/profile', { username: 'renamed' }), 'username');
    expect((await client.put('/api/users/profile', {})).status).toBe(400);
  });

  it('refuses a password change with the wrong current password, keeping the old one', async () => {
    const { client, user, password } = await anonymous.signUp('pw');

    const response = await client.post('/api/users/change-password', {
      current_password: 'not-my-password',
      new_password: 'another-password',
    });

    expectValidationOf(response, 'current_password');
    expect((await anonymous.post('/api/auth/login', { username: user.username, password })).status).toBe(200);
  });

  it('refuses a new password that is too short', async () => {
    const { client, password } = await anonymous.signUp('short');

    expectValidationOf(await client.post('/api/users/change-password', { current_password: password, new_password: 'short' }), 'new_password');
  });
});

describe('settings errors', () => {
  it.each([
    [{ theme: 'blue' }, 'theme'],
    [{ items_per_page: 0 }, 'items_per_page'],
    [{ items_per_page: 101 }, 'items_per_page'],
    [{ items_per_page: 2.5 }, 'items_per_page'],
    [{ notifications_enabled: 'yes' }, 'notifications_enabled'],
    [{ ocr_default_language: 'english' }, 'ocr_default_language'],
    [{ font_size: 12 }, 'font_size'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const { client } = await anonymous.signUp('settings');

    expectValidationOf(await client.put('/api/settings', body), field);
  });

  it('keeps the stored settings when an update is refused', async () => {
    const { client } = await anonymous.signUp('kept');
    await client.put('/api/settings', { theme: 'dark' });

    await client.put('/api/settings', { theme: 'light', items_per_page: 1000 });

    expect((await client.get('/api/settings')).body.theme).toBe('dark');
  });

  it('refuses settings without a token', async () => {
    expect((await anonymous.get('/api/settings')).status).toBe(401);
  });
});

describe('health', () => {
  it('answers 200 without authentication, naming each component', async () => {
    const response = await anonymous.get('/api/health');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', components: { dynamodb: 'ok', s3: 'ok', sqs: 'ok' } });
  });
});

describe('input that used to be a 500', () => {
  it('refuses a NUL in the search box with 400 on q', async () => {
    const { client } = await anonymous.signUp('nul');

    expectValidationOf(await client.get('/api/search?q=a%00b'), 'q');
  });

  it.each(['match', 'contains', 'exact'])('refuses a NUL in an advanced %s value with 400 naming the clause', async (type) => {
    const { client } = await anonymous.signUp('nul');

    const response = await client.post('/api/search/advanced', { query: { must: [{ field: 'title', value: 'abc\u0000def', type }] } });

    expectValidationOf(response, 'query.must.0.value');
  });

  it.each(['/api/documents/%zz', '/api/documents/%E2%82/download', '/api/documents/%/thumbnail'])(
    'answers a bad percent escape in %s as a malformed id: 401 without a token, 400 on id with one',
    async (path) => {
      const { client } = await anonymous.signUp('escape');

      const withoutToken = await anonymous.get(path);
      const withToken = await client.get(path);

      expect(withoutToken.status).toBe(401);
      expectValidationOf(withToken, 'id');
    },
  );

  it.each(['__proto__', 'constructor'])('refuses ?%s=1 like any unknown query parameter', async (name) => {
    const { client } = await anonymous.signUp('proto');

    expectValidationOf(await client.get(`/api/documents?${name}=1`), name);
  });
});

describe('document metadata that cannot be stored', () => {
  let admin: ApiClient;
  let id: string;

  beforeAll(async () => {
    admin = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    id = await admin.uploadDocument('meta.png', pngImage(8, 8), { ocr_enabled: 'false' });
    await admin.put(`/api/documents/${id}`, { metadata: { kept: 'yes' } });
  });

  it.each([
    ['constructor as a key', '{"metadata":{"constructor":"y"}}', 'metadata.constructor'],
    ['__proto__ as a key', '{"metadata":{"__proto__":{"polluted":"yes"}}}', 'metadata.__proto__'],
    ['an unpaired surrogate as a key', '{"metadata":{"\\ud800":"x"}}', 'metadata.\ud800'],
    ['a number above 2^53', '{"metadata":{"n":1e308}}', 'metadata.n'],
    ['a number below 1e-130', '{"metadata":{"n":1e-321}}', 'metadata.n'],
  ])('refuses %s with 400 naming it, leaving the document as it was', async (_, rawBody, field) => {
    const response = await admin.request('PUT', `/api/documents/${id}`, undefined, { rawBody, headers: { 'content-type': 'application/json' } });

    expectValidationOf(response, field);
    expect((await admin.get(`/api/documents/${id}`)).body.metadata).toEqual({ kept: 'yes' });
  });
});

describe('requests that Node refuses before any handler', () => {
  const port = Number(new URL(inject('baseUrl')).port);
  const answer = async (raw: string) => {
    const text = await rawExchange(port, Buffer.from(raw, 'latin1'));
    const [head = '', body = ''] = text.split('\r\n\r\n');
    return { status: Number(head.slice(9, 12)), requestId: /x-request-id: (\S+)/i.exec(head)?.[1], body: JSON.parse(body) };
  };

  it('answers headers over the limit with 431 and the P error body on headers', async () => {
    const response = await answer(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);

    expect(response.status).toBe(431);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'headers' }, request_id: response.requestId });
  });

  it('answers an HTTP/1.1 request without Host with 400 on host and the P error body', async () => {
    const response = await answer('GET /api/health HTTP/1.1\r\nAccept: */*\r\n\r\n');

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'host' }, request_id: response.requestId });
  });

  it('answers a malformed request line with 400 and the P error body, with a request id', async () => {
    const response = await answer('GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n');

    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.any(String),
      details: expect.objectContaining({ field: 'request' }),
      timestamp: expect.any(String),
      request_id: response.requestId,
    });
  });
});
