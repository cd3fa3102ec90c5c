import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpWebhookSender } from '../../../../shared/adapters/webhooks/http-webhook-sender';
import { MAX_RESPONSE_BYTES, type WebhookRequest } from '../../../../shared/domain/webhooks/ports';
import { generateSigningSecret, signatureHeaders } from '../../../../shared/domain/webhooks/signature';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A node:http receiver on 127.0.0.1 that records what it was sent and which connections are open. */
async function startReceiver(handler: (request: Seen, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  const open = new Set<unknown>();
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      handler(entry, response);
    });
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    openConnections: () => open.size,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve(server.closeAllConnections()))),
  };
}

/** A port nothing listens on: one a server had and gave back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const MEGABYTE = 1024 * 1024;
const BODY = JSON.stringify({ id: 'evt_1', type: 'ping', timestamp: '2026-11-29T00:00:00.000Z', data: {} });

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let redirectTarget: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  redirectTarget = await startReceiver((_request, response) => void response.writeHead(200).end('landed'));
  receiver = await startReceiver((request, response) => {
    if (request.url === '/ok') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks, got it');
    if (request.url === '/fails') return void response.writeHead(500).end('internal error');
    if (request.url === '/moved') return void response.writeHead(302, { location: `${redirectTarget.origin}/landed` }).end();
    if (request.url === '/huge') return void response.writeHead(200).end(Buffer.alloc(MEGABYTE, 'a'));
    if (request.url === '/silent') return; // never answers
    response.writeHead(404).end();
  });
});

afterAll(async () => {
  await Promise.all([receiver.stop(), redirectTarget.stop()]);
});

/** Loopback is a private address: the receivers are reached only when the policy allows private networks. */
const lanSender = (options?: { timeoutMs?: number }) => new HttpWebhookSender({ allowPrivateNetworks: true }, options);
const publicOnlySender = () => new HttpWebhookSender({ allowPrivateNetworks: false });
const post = (url: string, headers: Record<string, string> = {}): WebhookRequest => ({ url, headers, body: BODY });

describe('HttpWebhookSender', () => {
  it('returns a 2xx status and the body the receiver answered', async () => {
    // Act
    const response = await lanSender().send(post(`${receiver.origin}/ok`));

    // Assert
    expect(response).toMatchObject({ status: 200, error: null, body: 'thanks, got it' });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('returns a 500 as a status, not an error', async () => {
    // Act
    const response = await lanSender().send(post(`${receiver.origin}/fails`));

    // Assert
    expect(response).toMatchObject({ status: 500, error: null, body: 'internal error' });
  });

  it('gives up on a receiver that never answers with a timeout at its deadline', async () => {
    // Arrange
    const sender = lanSender({ timeoutMs: 300 });

    // Act
    const response = await sender.send(post(`${receiver.origin}/silent`));

    // Assert: the receiver never answers, so an answer at all is the deadline's.
    expect(response).toMatchObject({ status: null, error: 'timeout', body: '' });
    expect(response.durationMs).toBeGreaterThanOrEqual(250);
  });

  it('returns a 302 as it is and never requests its Location', async () => {
    // Arrange
    const targetRequests = redirectTarget.seen.length;

    // Act
    const response = await lanSender().send(post(`${receiver.origin}/moved`));

    // Assert
    expect(response).toMatchObject({ status: 302, error: null });
    expect(redirectTarget.seen).toHaveLength(targetRequests);
  });

  it('reads a large answer only up to its limit', async () => {
    // Act
    const response = await lanSender().send(post(`${receiver.origin}/huge`));

    // Assert
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
    expect(response.body.length).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
  });

  it('keeps no connection open once an attempt is over', async () => {
    // Act
    await lanSender().send(post(`${receiver.origin}/ok`));
    await lanSender({ timeoutMs: 300 }).send(post(`${receiver.origin}/silent`));

    // Assert
    await vi.waitFor(() => expect(receiver.openConnections()).toBe(0), { timeout: 5_000 });
  });

  it('reports a refused connection as connection_failed', async () => {
    // Arrange
    const port = await closedPort();

    // Act
    const response = await lanSender().send(post(`http://127.0.0.1:${port}/hook`));

    // Assert
    expect(response).toMatchObject({ status: null, error: 'connection_failed', body: '' });
  });

  it.each([
    ['an IP literal', (port: number) => `http://127.0.0.1:${port}/ok`],
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/ok`],
  ])('refuses a loopback receiver given as %s when private networks are not allowed, sending nothing', async (_case, url) => {
    // Arrange
    const requests = receiver.seen.length;

    // Act
    const response = await publicOnlySender().send(post(url(receiver.port)));

    // Assert
    expect(response).toMatchObject({ status: null, error: 'address_not_allowed', body: '' });
    expect(receiver.seen).toHaveLength(requests);
  });

  it('delivers the signed request: POST, JSON, the three webhook-* headers and the body intact', async () => {
    // Arrange
    const secret = generateSigningSecret();
    const signed = signatureHeaders({ id: 'msg_signed', timestamp: new Date(), body: BODY, secrets: [secret] });

    // Act
    const response = await lanSender().send(post(`${receiver.origin}/ok`, signed));

    // Assert
    expect(response.status).toBe(200);
    const arrived = receiver.seen.at(-1);
    expect(arrived).toMatchObject({ method: 'POST', url: '/ok', body: BODY });
    expect(arrived?.headers).toMatchObject({ ...signed, 'content-type': 'application/json', 'user-agent': 'docservice-webhooks/1' });
    expect(() => new Webhook(secret).verify(arrived?.body ?? '', arrived?.headers as Record<string, string>)).not.toThrow();
  });
});
