import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { SWAGGER_UI_CSP } from '../../shared/api-docs/swagger-ui-page';

/**
 * The API contract and its Swagger UI on the local runtime: static, public, cacheable answers before any route,
 * never counted against a rate limit, and only the allow-listed files (shared/api-docs/files.ts).
 */

const baseUrl = inject('baseUrl');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request sent exactly as written: node:http leaves `..` and escapes in the path alone (fetch would not). */
function send(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  // Framed by its length: node:http would send a DELETE's body unframed.
  const headers = options.body === undefined ? options.headers : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const json = (answer: Answer) => JSON.parse(answer.body.toString('utf8'));

/** The fallback's P 404, with the request id of the answer's header. */
const expectP404 = (answer: Answer, method: string, path: string) => {
  expect(answer.status).toBe(404);
  expect(answer.headers['content-type']).toContain('application/json');
  expect(json(answer)).toEqual({
    error: {
      code: 'NOT_FOUND',
      message: expect.any(String),
      details: { method, path: expect.any(String) },
      timestamp: expect.any(String),
      request_id: answer.headers['x-request-id'],
    },
  });
  expect(json(answer).error.details.path).toBe(path);
};

const rateLimitHeaders = (answer: Answer) => Object.keys(answer.headers).filter((name) => name.startsWith('x-ratelimit-'));

const SERVED: [path: string, contentType: RegExp][] = [
  ['/api-docs/openapi.json', /^application\/json/],
  ['/api/openapi.json', /^application\/json/],
  ['/api-docs/asyncapi.json', /^application\/json/],
  ['/swagger-ui', /^text\/html/],
  ['/swagger-ui/', /^text\/html/],
  ['/swagger-ui/index.html', /^text\/html/],
  ['/swagger-ui/initializer.js', /^text\/javascript/],
  ['/swagger-ui/swagger-ui.css', /^text\/css/],
  ['/swagger-ui/swagger-ui-bundle.js', /^text\/javascript/],
];

describe('the API contract and its UI on the local runtime', () => {
  it.each(SERVED)('serves %s with its content type, public caching, an ETag and no rate-limit headers', async (path, contentType) => {
    const answer = await send('GET', path);

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(contentType);
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
    expect(answer.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeGreaterThan(0);
    expect(rateLimitHeaders(answer)).toEqual([]);
  });

  it('differs from a request that is counted, which carries the rate-limit headers (the control)', async () => {
    // Login is public and counted per client address before its body is checked.
    const counted = await send('POST', '/api/auth/login', { headers: { 'content-type': 'application/json' }, body: '{}' });

    expect(rateLimitHeaders(counted)).toContain('x-ratelimit-limit');
  });

  it('serves the contract files of docs/api as they are on disk, under both paths of the OpenAPI document', async () => {
    const [openapi, legacy, asyncapi] = await Promise.all(['/api-docs/openapi.json', '/api/openapi.json', '/api-docs/asyncapi.json'].map((p) => send('GET', p)));
    const onDisk = (name: string) => readFile(new URL(`../../docs/api/${name}`, import.meta.url));

    expect(openapi!.body.equals(await onDisk('openapi.json'))).toBe(true);
    expect(legacy!.body.equals(openapi!.body)).toBe(true);
    expect(legacy!.headers['etag']).toBe(openapi!.headers['etag']);
    expect(asyncapi!.body.equals(await onDisk('asyncapi.json'))).toBe(true);
    expect(json(openapi!).openapi).toMatch(/^3\.1\./);
    expect(json(asyncapi!).asyncapi).toMatch(/^3\./);
  });

  it("serves a page under a strict CSP that loads swagger-ui's files and our initializer, with no inline script", async () => {
    const page = await send('GET', '/swagger-ui');
    const initializer = (await send('GET', '/swagger-ui/initializer.js')).body.toString('utf8');
    const html = page.body.toString('utf8');

    expect(page.headers['content-security-policy']).toBe(SWAGGER_UI_CSP);
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"]) {
      expect(page.headers['content-security-policy']).toContain(directive);
    }
    expect(html).toContain('href="/swagger-ui/swagger-ui.css"');
    expect([...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag)).toEqual([
      '<script src="/swagger-ui/swagger-ui-bundle.js">',
      '<script src="/swagger-ui/initializer.js">',
    ]);
    expect(html).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/);
    expect(initializer).toContain("url: \"/api-docs/openapi.json\"");
    expect(initializer).toContain('persistAuthorization: true');
  });

  it.each(SERVED.map(([path]) => path))('answers HEAD %s with the headers of GET and no body', async (path) => {
    const [get, head] = [await send('GET', path), await send('HEAD', path)];

    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['etag']).toBe(get.headers['etag']);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(rateLimitHeaders(head)).toEqual([]);
  });

  it('answers a request with a matching ETag with 304 and no body, and one with another ETag in full', async () => {
    const first = await send('GET', '/swagger-ui/swagger-ui-bundle.js');
    const etag = String(first.headers['etag']);

    const [same, weak, listed, other] = await Promise.all([
      send('GET', '/swagger-ui/swagger-ui-bundle.js', { headers: { 'if-none-match': etag } }),
      send('GET', '/swagger-ui/swagger-ui-bundle.js', { headers: { 'if-none-match': `W/${etag}` } }),
      send('HEAD', '/swagger-ui/swagger-ui-bundle.js', { headers: { 'if-none-match': `"other", ${etag}` } }),
      send('GET', '/swagger-ui/swagger-ui-bundle.js', { headers: { 'if-none-match': '"other"' } }),
    ]);

    for (const notModified of [same!, weak!, listed!]) {
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
      expect(notModified.headers['etag']).toBe(etag);
      expect(notModified.headers['cache-control']).toBe('public, max-age=300');
      expect(rateLimitHeaders(notModified)).toEqual([]);
    }
    expect(other!.status).toBe(200);
    expect(other!.body.equals(first.body)).toBe(true);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('answers %s on every served path with the P 404, uncounted', async (method) => {
    for (const [path] of SERVED) {
      const answer = await send(method, path, { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });

      expectP404(answer, method, path);
      expect(rateLimitHeaders(answer)).toEqual([]);
    }
  });

  it.each([
    '/api-docs/x',
    '/api-docs/',
    '/api-docs/openapi.yaml',
    '/swagger-ui/x',
    '/swagger-ui/index.js',
    '/swagger-ui/swagger-initializer.js',
    '/swagger-ui/swagger-ui.js.map',
    '/swagger-ui/package.json',
    '/swagger-ui/oauth2-redirect.html',
  ])('answers %s, which is not on the allow-list, with the P 404', async (path) => {
    const answer = await send('GET', path);

    expectP404(answer, 'GET', path);
    expect(rateLimitHeaders(answer)).toEqual([]);
  });

  it('answers a CORS preflight on a docs path with the P 404, and one on an API path with the preflight', async () => {
    const preflight = { headers: { origin: 'http://example.test', 'access-control-request-method': 'GET' } };

    const docs = await send('OPTIONS', '/api-docs/openapi.json', preflight);
    const api = await send('OPTIONS', '/api/documents', preflight);

    expectP404(docs, 'OPTIONS', '/api-docs/openapi.json');
    expect(api.status).toBeLessThan(300);
  });

  it.each([
    '/swagger-ui/../package.json',
    '/swagger-ui/%2e%2e/package.json',
    '/swagger-ui/..%2fpackage.json',
    '/swagger-ui/..%2F..%2Fpackage.json',
    '/api-docs/../../package.json',
    '/api-docs/..%2f..%2fpackage.json',
    '/swagger-ui/swagger-ui.css/../../../etc/passwd',
    '/swagger-ui/%2e%2e%2f%2e%2e%2fdocs%2fapi%2fopenapi.json',
  ])('never leaves the allow-list for %s', async (path) => {
    const answer = await send('GET', path);

    expect(answer.status).toBe(404);
    expect(json(answer).error.code).toBe('NOT_FOUND');
    expect(answer.body.toString('utf8')).not.toContain('"dependencies"');
    expect(answer.body.toString('utf8')).not.toContain('root:');
  });
});
