import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unauthorized } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { httpHandler } from '../../../shared/http/pipeline';
import { json } from '../../../shared/http/responses';
import { route } from '../../../shared/http/route';
import { createGateway, type GatewayOptions } from '../../../shared/local/gateway';
import { RouteTable } from '../../../shared/local/route-table';
import { until } from '../../support/until';

const MIB = 1024 * 1024;
const EDITOR: Principal = {
  userId: 'u1',
  username: 'editor',
  email: 'editor@example.com',
  role: 'editor',
  workspaceId: 'w1',
  operator: false,
  jti: 'j1',
  tokenExpiresAt: new Date(Date.now() + 3_600_000),
  tokenVersion: 0,
};

/** The token check of the handlers (and, unless a test says otherwise, of the gateway): `good` and `flaky` pass. */
const authenticate = async (token: string): Promise<Principal> => {
  if (token === 'good' || token === 'flaky') return EDITOR;
  throw unauthorized(token === 'expired' ? 'The token has expired' : 'The token is not valid');
};

const bodyBytes = (event: APIGatewayProxyEventV2): number =>
  event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8').length : 0;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { error?: { code: string; message: string; request_id: string; details: Record<string, unknown> }; bytes?: number };
  /** Whether the answer came before the client had sent the whole body. */
  beforeBodyEnd: boolean;
}

/**
 * The local gateway in front of real handlers (the pipeline with its token check): when it reads a body, where
 * it keeps it, and what it answers without it.
 */
describe('the local gateway and request bodies', () => {
  let server: Server;
  let spoolDir: string;
  let baseUrl: string;
  /** The body sizes the routes' `handle` saw. */
  let handled: number[];
  let gatewayChecks: string[];

  const things = httpHandler({
    corsOrigins: '*',
    authenticate,
    routes: [
      route({
        key: 'POST /api/things',
        access: 'editor',
        handle: async ({ event }) => {
          handled.push(bodyBytes(event));
          return json(200, { bytes: bodyBytes(event) });
        },
      }),
      route({ key: 'GET /api/things', access: 'viewer', handle: async () => json(200, { bytes: 0 }) }),
      route({
        key: 'POST /api/open',
        access: 'public',
        handle: async ({ event }) => {
          handled.push(bodyBytes(event));
          return json(200, { bytes: bodyBytes(event) });
        },
      }),
    ],
  });

  const start = async (options: Partial<GatewayOptions> = {}) => {
    server = createGateway({
      routes: new RouteTable([
        { routeKey: 'POST /api/things', handler: things },
        { routeKey: 'GET /api/things', handler: things },
        { routeKey: 'POST /api/open', handler: things, authenticated: false },
      ]),
      fallback: httpHandler({ corsOrigins: '*', routes: [] }),
      spoolDir,
      authenticate: async (token) => {
        gatewayChecks.push(token);
        if (token === 'flaky') throw new Error('the user store does not answer');
        return authenticate(token);
      },
      ...options,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  /**
   * Sends `send` bytes of a body declaring `contentLength` (default: `send`), ending it only when that is all of
   * it; resolves with the answer, and `sendRest` sends the rest of the body.
   */
  const exchange = (method: string, path: string, options: { token?: string; send?: number; contentLength?: number } = {}) => {
    const send = options.send ?? 0;
    const contentLength = options.contentLength ?? send;
    const outgoing = httpRequest(`${baseUrl}${path}`, {
      method,
      agent: false,
      headers: {
        'content-type': 'application/octet-stream',
        ...(contentLength ? { 'content-length': contentLength } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
    });
    let sent = 0;
    const answer = new Promise<Answer>((resolve, reject) => {
      outgoing.on('error', () => undefined);
      outgoing.on('response', (response) => {
        const beforeBodyEnd = sent < contentLength;
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          outgoing.destroy();
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text), beforeBodyEnd });
        });
        response.on('error', reject);
      });
    });
    outgoing.flushHeaders();
    if (send) outgoing.write(Buffer.alloc(send, 'x'), () => (sent = send));
    if (send === contentLength) outgoing.end();
    return Object.assign(answer, {
      sendRest: () => outgoing.end(Buffer.alloc(contentLength - send, 'x'), () => (sent = contentLength)),
    });
  };

  beforeEach(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'docservice-gateway-'));
    handled = [];
    gatewayChecks = [];
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(spoolDir, { recursive: true, force: true });
  });

  it("answers a body sent without a token to a route that needs one with its handler's 401 before the body ends, and closes the connection", async () => {
    await start();

    const answer = await exchange('POST', '/api/things', { send: 64 * 1024, contentLength: 10 * MIB });

    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'A bearer token is required', request_id: answer.headers['x-request-id'] });
    expect(answer.headers).toMatchObject({ connection: 'close', 'access-control-allow-origin': '*' });
    expect(answer.beforeBodyEnd).toBe(true);
    expect(handled).toEqual([]);
  });

  it('answers a body sent with a token the token check refuses with the 401 its handler gives, unread', async () => {
    await start();

    const answer = await exchange('POST', '/api/things', { token: 'expired', send: 64 * 1024, contentLength: 10 * MIB });

    expect(answer.status).toBe(401);
    expect(answer.body.error?.message).toBe('The token has expired');
    expect(answer.headers.connection).toBe('close');
    expect(answer.beforeBodyEnd).toBe(true);
  });

  it('reads the body of a route that needs a token once the token check accepts it', async () => {
    await start();

    const answer = await exchange('POST', '/api/things', { token: 'good', send: 3000 });

    expect(answer.status).toBe(200);
    expect(handled).toEqual([3000]);
    expect(gatewayChecks).toEqual(['good']);
  });

  it('leaves the decision to the handler when the token check fails for a reason other than the token', async () => {
    await start();

    const answer = await exchange('POST', '/api/things', { token: 'flaky', send: 3000 });

    expect(gatewayChecks).toEqual(['flaky']);
    expect(answer.status).toBe(200);
    expect(handled).toEqual([3000]);
  });

  it('checks the token of a request with a body only, leaving one without a body to its handler', async () => {
    await start();

    await exchange('GET', '/api/things', { token: 'good' });
    await exchange('POST', '/api/things', { token: 'good', send: 10 });

    expect(gatewayChecks).toEqual(['good']);
  });

  it('answers a path no route serves with 404 before its body ends, and closes the connection', async () => {
    await start();

    const answer = await exchange('POST', '/api/nowhere', { token: 'good', send: 64 * 1024, contentLength: 10 * MIB });

    expect(answer.status).toBe(404);
    expect(answer.headers.connection).toBe('close');
    expect(answer.beforeBodyEnd).toBe(true);
  });

  it('spools a body past the memory window while it arrives and removes the file once the request is answered', async () => {
    await start();
    const exchanged = exchange('POST', '/api/things', { token: 'good', send: 3 * MIB, contentLength: 3 * MIB + 1 });
    await until(async () => (await readdir(spoolDir)).length === 1, 10_000, 'the body spooled');

    exchanged.sendRest();
    const answer = await exchanged;

    expect(answer.status).toBe(200);
    expect(handled).toEqual([3 * MIB + 1]);
    expect(await readdir(spoolDir)).toEqual([]);
  });

  it('answers a body that stops arriving with 408 and the P body, and closes the connection', async () => {
    await start({ bodyTimeouts: { idleMs: 300 } });

    const answer = await exchange('POST', '/api/things', { token: 'good', send: 2 * MIB, contentLength: 10 * MIB });

    expect(answer.status).toBe(408);
    expect(answer.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'request' }, request_id: answer.headers['x-request-id'] });
    expect(answer.headers.connection).toBe('close');
    expect(await readdir(spoolDir)).toEqual([]);
  });
});
