import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { ConnectionSender } from '../../shared/domain/connections/ports';
import { LocalWebSocketGateway } from '../../shared/local/websocket-gateway';

/** A real WebSocket client of a {@link liveGateway}, and what it has received. */
export interface LiveClient {
  /** The id the gateway gave the connection, as its $connect route saw it. */
  connectionId: string;
  socket: WebSocket;
  /** Every text message received so far, in order. */
  messages: string[];
  /** The close code the client saw, once the connection is closed. */
  closed: Promise<number>;
}

/** The local WebSocket gateway on a loopback port, with its in-process sender and real clients. */
export interface LiveGateway {
  /** Pushes to and closes the gateway's connections, as `@connections` does. */
  sender: ConnectionSender;
  /** Opens a client and resolves once the gateway accepted it. */
  connect(): Promise<LiveClient>;
  stop(): Promise<void>;
}

/**
 * Starts the local gateway (the runtime's stand-in for API Gateway's WebSocket API) whose routes accept every
 * connection and answer nothing, so that a use case's pushes and closes reach a real socket.
 */
export async function liveGateway(): Promise<LiveGateway> {
  const waiting: ((connectionId: string) => void)[] = [];
  const gateway = new LocalWebSocketGateway({
    handler: async (event) => {
      if (event.requestContext.routeKey === '$connect') waiting.shift()?.(event.requestContext.connectionId);
      return { statusCode: 200 };
    },
  });
  const server: Server = createServer();
  gateway.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  const clients: WebSocket[] = [];
  return {
    sender: gateway.directSender,
    connect: async () => {
      const id = new Promise<string>((resolve) => waiting.push(resolve));
      const socket = new WebSocket(url);
      clients.push(socket);
      const messages: string[] = [];
      socket.on('message', (data: WebSocket.RawData) => messages.push(data.toString()));
      const closed = new Promise<number>((resolve) => socket.once('close', resolve));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      return { connectionId: await id, socket, messages, closed };
    },
    stop: async () => {
      for (const socket of clients) socket.terminate();
      await gateway.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
