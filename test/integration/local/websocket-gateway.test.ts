import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiGatewayConnectionSender } from '../../../shared/adapters/aws/apigateway/connection-sender';
import { createConnectionsClient } from '../../../shared/adapters/aws/clients';
import { localClientOptions } from '../../../shared/local/local-clients';
import type { ConnectionSender } from '../../../shared/domain/connections/ports';
import { LocalWebSocketGateway, type WebSocketHandler } from '../../../shared/local/websocket-gateway';

/**
 * The local gateway's two ways in for events: its @connections API, driven by the same adapter and SDK client
 * the cloud uses (what works here works against API Gateway's management API), and its in-process sender
 * (LOCAL_EVENT_DELIVERY=direct), which must behave the same.
 */
describe.each([
  {
    way: '@connections through the SDK client',
    senderOf: (_gateway: LocalWebSocketGateway, url: string): ConnectionSender =>
      new ApiGatewayConnectionSender(() => createConnectionsClient({ ...localClientOptions(url), endpoint: url, requestTimeoutMs: 3000 })),
  },
  { way: 'the in-process sender', senderOf: (gateway: LocalWebSocketGateway): ConnectionSender => gateway.directSender },
])('LocalWebSocketGateway, $way', ({ senderOf }) => {
  let server: Server;
  let gateway: LocalWebSocketGateway;
  let sender: ConnectionSender;
  let url: string;
  const connected: string[] = [];

  /** Opens a client and resolves with it and the connection id the gateway gave it. */
  const open = async () => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { socket, connectionId: connected.at(-1)! };
  };

  beforeAll(async () => {
    gateway = new LocalWebSocketGateway({
      handler: async (event) => {
        if (event.requestContext.routeKey === '$connect') connected.push(event.requestContext.connectionId);
        return { statusCode: 200 };
      },
    });
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => gateway.handleManagementRequest(request, response, Buffer.concat(chunks)));
    });
    gateway.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sender = senderOf(gateway, url);
  });

  afterAll(async () => {
    await gateway.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('delivers a posted message to the connection as a text frame', async () => {
    // Arrange
    const { socket, connectionId } = await open();
    const received = new Promise<string>((resolve) => socket.once('message', (data) => resolve(data.toString())));

    // Act
    const result = await sender.send(connectionId, '{"type":"queue_status","data":{}}');

    // Assert
    expect(result).toBe('sent');
    expect(await received).toBe('{"type":"queue_status","data":{}}');
    socket.close();
  });

  it('reports a connection it does not hold as gone', async () => {
    // Arrange
    const unknown = crypto.randomUUID();

    // Act
    const result = await sender.send(unknown, '{}');

    // Assert
    expect(result).toBe('gone');
  });

  it('closes the connection with 1000', async () => {
    // Arrange
    const { socket, connectionId } = await open();
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));

    // Act
    await sender.close(connectionId);

    // Assert
    expect(await closed).toBe(1000);
  });

  it('refuses a message above 128 KB, as API Gateway does, and leaves the connection open', async () => {
    // Arrange
    const { socket, connectionId } = await open();

    // Act
    const outcome = sender.send(connectionId, 'x'.repeat(128 * 1024 + 1));

    // Assert
    await expect(outcome).rejects.toThrow();
    expect(await sender.send(connectionId, '{}')).toBe('sent');
    socket.close();
  });

  it('drops a client that lets megabytes pile up unread and reports it gone, so it costs bounded memory', async () => {
    // Arrange: a client that stops reading its socket
    const { socket, connectionId } = await open();
    (socket as unknown as { _socket: Duplex })._socket.pause();
    const message = 'x'.repeat(100 * 1024);

    // Act: send until the gateway gives up on it (the kernel's buffers take a few megabytes first)
    const results: string[] = [];
    for (let i = 0; i < 500 && results.at(-1) !== 'gone'; i++) results.push(await sender.send(connectionId, message));

    // Assert
    expect(results.at(-1)).toBe('gone');
    expect(results.filter((r) => r === 'sent').length).toBeGreaterThan(40);
    expect(await sender.send(connectionId, '{}')).toBe('gone');
  });
});

describe('LocalWebSocketGateway, route responses and frames', () => {
  const running: { gateway: LocalWebSocketGateway; server: Server }[] = [];

  /** A gateway on its own server, serving `handler`; the suite's cleanup closes it. */
  const start = async (handler: WebSocketHandler) => {
    const gateway = new LocalWebSocketGateway({ handler });
    const server = createServer();
    gateway.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push({ gateway, server });
    return { gateway, wsUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws` };
  };

  const connect = async (wsUrl: string) => {
    const socket = new WebSocket(wsUrl);
    socket.on('error', () => undefined);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return socket;
  };

  afterAll(async () => {
    for (const { gateway, server } of running) {
      await gateway.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('drops a client that lets route responses pile up unread, as it drops one that does not read its pushes', async () => {
    // Arrange: every message is answered with 100 KB, and the client stops reading
    let disconnected!: () => void;
    const gone = new Promise<void>((resolve) => (disconnected = resolve));
    const { gateway, wsUrl } = await start(async (event) => {
      if (event.requestContext.routeKey === '$disconnect') disconnected();
      return event.requestContext.routeKey === '$default' ? { statusCode: 200, body: 'x'.repeat(100 * 1024) } : { statusCode: 200 };
    });
    const socket = await connect(wsUrl);
    socket.pause();

    // Act: far more answers than the kernel's buffers and the gateway's cap hold
    for (let i = 0; i < 300; i++) socket.send('{"type":"ping"}');
    await gone;

    // Assert
    expect(gateway.size).toBe(0);
    socket.terminate();
  });

  it('passes no frame to the handler once the connection is closing', async () => {
    // Arrange: the handler closes the connection on its first message, as the realtime routes do over budget
    const served: string[] = [];
    const { gateway, wsUrl } = await start(async (event) => {
      if (event.requestContext.routeKey !== '$default') return { statusCode: 200 };
      served.push(event.body ?? '');
      void gateway.directSender.close(event.requestContext.connectionId);
      return { statusCode: 200 };
    });
    const socket = await connect(wsUrl);
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));

    // Act: a hundred frames written at once, which reach the gateway together
    for (let i = 0; i < 100; i++) socket.send(`{"n":${i}}`);
    const code = await closed;

    // Assert
    expect(served).toEqual(['{"n":0}']);
    expect(code).toBe(1000);
  });
});

describe('the @connections SDK client', () => {
  it('gives up on a call that gets no answer within the request timeout, so a stuck endpoint holds no send forever', async () => {
    // Arrange: an endpoint that reads the request and never answers
    const silent = createServer((request) => request.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const impatient = new ApiGatewayConnectionSender(() =>
      createConnectionsClient({ ...localClientOptions(silentUrl), endpoint: silentUrl, requestTimeoutMs: 200 }),
    );

    // Act
    const outcome = await impatient.send('any-connection', '{}').then(
      () => 'answered',
      (error: Error) => error.name,
    );

    // Assert
    expect(outcome).toBe('TimeoutError');
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });
});
