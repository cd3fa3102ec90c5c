import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiGatewayConnectionSender } from '../../shared/adapters/aws/api-gateway-connection-sender';
import { createConnectionsClient } from '../../shared/adapters/aws/clients';
import { localClientOptions } from '../../shared/container/local';
import { LocalWebSocketGateway } from '../../shared/local/websocket-gateway';

/**
 * The local gateway's @connections API, driven by the same adapter and SDK client the cloud uses: what works
 * here works against API Gateway's management API.
 */
describe('LocalWebSocketGateway @connections', () => {
  let server: Server;
  let gateway: LocalWebSocketGateway;
  let sender: ApiGatewayConnectionSender;
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
    sender = new ApiGatewayConnectionSender(() => createConnectionsClient({ ...localClientOptions(url), endpoint: url, requestTimeoutMs: 3000 }));
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

  it('answers 410 for a connection it does not hold, which the SDK client reports as gone', async () => {
    // Arrange
    const unknown = crypto.randomUUID();

    // Act
    const result = await sender.send(unknown, '{}');

    // Assert
    expect(result).toBe('gone');
  });

  it('closes the connection on DELETE', async () => {
    // Arrange
    const { socket, connectionId } = await open();
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));

    // Act
    await sender.close(connectionId);

    // Assert
    expect(await closed).toBe(1000);
  });

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
