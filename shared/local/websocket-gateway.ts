import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONNECTION_LIFETIME_SECONDS, MAX_FRAME_BYTES, WS_CLOSE_CODES, type ConnectionSender, type SendResult } from '../domain/connections/ports';
import { logger } from '../observability/logger';
import { isOwnUserPeer } from './loopback-peer';

export type WebSocketHandler = (event: APIGatewayProxyWebsocketEventV2) => Promise<APIGatewayProxyResultV2>;

/** API Gateway's PostToConnection takes at most 128 KB. */
const MAX_POST_BYTES = 128 * 1024;
/**
 * A client that lets this much pile up unread is treated as dead: it is dropped (and a push to it answered 410),
 * so that a stuck client costs bounded memory and is removed like a vanished one. Route responses and pushes
 * count alike.
 */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface WebSocketGatewayOptions {
  /** Serves $connect, $disconnect and $default, as the realtime Lambda does in the cloud. */
  handler: WebSocketHandler;
  path?: string;
  /**
   * Called once a connection has been open this long, to close it if it has not authenticated. API Gateway
   * has no such timer; the cloud closes late connections on their next message instead (README, API notes).
   */
  authDeadline?: { ms: number; onExpired(connectionId: string): Promise<unknown> };
}

interface LiveConnection {
  socket: WebSocket;
  connectedAt: Date;
  lastActiveAt: Date;
  sourceIp: string;
  userAgent: string;
  timers: NodeJS.Timeout[];
}

/**
 * The local stand-in for API Gateway's WebSocket API at `/ws`: each connection, message and disconnection
 * becomes the $connect, $default or $disconnect event of the same handler the realtime Lambda runs, and a
 * $default result body is sent back to the client, as a route response is in the cloud. It also serves the
 * management API (`@connections`) that pushes to and closes connections, so the same SDK client works in both
 * runtimes.
 */
export class LocalWebSocketGateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly live = new Map<string, LiveConnection>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly path: string;

  constructor(private readonly options: WebSocketGatewayOptions) {
    this.path = options.path ?? '/ws';
  }

  /** Serves WebSocket upgrades on the server's `path`; other paths are refused. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(request, socket, head));
  }

  /**
   * Serves `POST|GET|DELETE /@connections/{id}` as API Gateway's management API does: 410 GoneException for a
   * connection that does not exist. Signatures are not checked, so only callers on this machine (loopback, or
   * the very address the gateway listens on) are served, whatever HOST the gateway binds.
   */
  handleManagementRequest(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
    const answer = (status: number, payload?: unknown, errorType?: string) => {
      response.writeHead(status, {
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
      });
      response.end(payload === undefined ? undefined : JSON.stringify(payload));
    };
    const gone = () => answer(410, { message: null }, 'GoneException');
    // Only the runtime itself pushes to its sockets: another user of this machine is refused like another host.
    if (!isOwnUserPeer(request.socket)) return answer(403, { message: 'Forbidden' }, 'ForbiddenException');
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const connectionId = decodeURIComponent(path.slice('/@connections/'.length));
    const connection = this.open(connectionId);
    if (!connection) return gone();
    switch (request.method) {
      case 'POST':
        if (body.byteLength > MAX_POST_BYTES) return answer(413, { message: 'Request entity too large' }, 'PayloadTooLargeException');
        return this.push(connection, body.toString('utf8')) === 'sent' ? answer(200) : gone();
      case 'DELETE':
        connection.socket.close(WS_CLOSE_CODES.closedByService, 'Closed by the server');
        return answer(204);
      case 'GET':
        return answer(200, {
          ConnectedAt: connection.connectedAt.toISOString(),
          Identity: { SourceIp: connection.sourceIp, UserAgent: connection.userAgent },
          LastActiveAt: connection.lastActiveAt.toISOString(),
        });
      default:
        return answer(405, { message: 'Method not allowed' });
    }
  }

  /**
   * The gateway as a sender in the same process (LOCAL_EVENT_DELIVERY=direct): the same outcomes as its
   * `@connections` POST and DELETE, without a request per message.
   */
  readonly directSender: ConnectionSender = {
    send: async (connectionId: string, message: string): Promise<SendResult> => {
      if (Buffer.byteLength(message) > MAX_POST_BYTES) throw new Error(`message of ${Buffer.byteLength(message)} bytes is above the 128 KB limit`);
      const connection = this.open(connectionId);
      return connection ? this.push(connection, message) : 'gone';
    },
    close: async (connectionId: string): Promise<void> => {
      this.open(connectionId)?.socket.close(WS_CLOSE_CODES.closedByService, 'Closed by the server');
    },
  };

  /** How many sockets are open. */
  get size(): number {
    return this.live.size;
  }

  /** Closes every socket and waits for their $disconnect routes, so no connection record outlives the runtime. */
  async close(): Promise<void> {
    for (const connection of this.live.values()) connection.socket.terminate();
    // Terminated sockets emit 'close' on the next turns of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.allSettled([...this.pending]);
    this.wss.close();
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== this.path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const connectionId = crypto.randomUUID();
    this.track(this.options.handler(wsEvent('$connect', 'CONNECT', connectionId)))
      .then((result) => {
        if (statusOf(result) !== 200) {
          socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
          return;
        }
        this.wss.handleUpgrade(request, socket, head, (ws) => this.serve(ws, connectionId, request));
      })
      .catch((error: unknown) => {
        logger.error('websocket connect failed', { connection_id: connectionId, error });
        socket.end('HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n\r\n');
      });
  }

  private serve(ws: WebSocket, connectionId: string, request: IncomingMessage): void {
    const now = new Date();
    const connection: LiveConnection = {
      socket: ws,
      connectedAt: now,
      lastActiveAt: now,
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      userAgent: request.headers['user-agent'] ?? '',
      timers: [setTimeout(() => ws.close(WS_CLOSE_CODES.lifetimeOver, 'Going away'), CONNECTION_LIFETIME_SECONDS * 1000).unref()],
    };
    const deadline = this.options.authDeadline;
    if (deadline) {
      const onExpired = () =>
        this.track(deadline.onExpired(connectionId)).catch((error: unknown) =>
          logger.error('websocket auth deadline failed', { connection_id: connectionId, error }),
        );
      connection.timers.push(setTimeout(onExpired, deadline.ms).unref());
    }
    this.live.set(connectionId, connection);
    ws.on('message', (data, isBinary) => {
      // Frames still arriving once the socket is closing are nobody's business: the handler decided to close it.
      if (ws.readyState !== ws.OPEN) return;
      connection.lastActiveAt = new Date();
      const body = isBinary ? Buffer.from(data as Buffer).toString('base64') : data.toString();
      this.track(this.options.handler({ ...wsEvent('$default', 'MESSAGE', connectionId), body, isBase64Encoded: isBinary }))
        .then((result) => {
          const reply = typeof result === 'object' && result !== null && 'body' in result ? result.body : undefined;
          // A route response is a write like any other: a client that does not read it is dropped.
          if (reply && ws.readyState === ws.OPEN) this.push(connection, reply);
        })
        .catch((error: unknown) => logger.error('websocket message failed', { connection_id: connectionId, error }));
    });
    // A peer that vanishes without a close frame surfaces as an error, then a close.
    ws.on('error', (error) => logger.debug('websocket error', { connection_id: connectionId, error }));
    ws.on('close', () => {
      for (const timer of connection.timers) clearTimeout(timer);
      this.live.delete(connectionId);
      this.track(this.options.handler(wsEvent('$disconnect', 'DISCONNECT', connectionId))).catch((error: unknown) =>
        logger.error('websocket disconnect failed', { connection_id: connectionId, error }),
      );
    });
  }

  /** The connection if its socket is open. */
  private open(connectionId: string): LiveConnection | undefined {
    const connection = this.live.get(connectionId);
    return connection && connection.socket.readyState === connection.socket.OPEN ? connection : undefined;
  }

  /**
   * Sends a text frame (a push or a route response), or drops a client that has let too much pile up unread and
   * reports it gone.
   */
  private push(connection: LiveConnection, message: string): SendResult {
    if (connection.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      connection.socket.terminate();
      return 'gone';
    }
    connection.socket.send(message);
    return 'sent';
  }

  /** Remembers a handler call until it settles, so that closing can wait for it. */
  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    const forget = () => this.pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }
}

function statusOf(result: APIGatewayProxyResultV2): number {
  return typeof result === 'object' && result !== null && 'statusCode' in result ? (result.statusCode ?? 200) : 200;
}

function wsEvent(
  routeKey: string,
  eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT',
  connectionId: string,
): APIGatewayProxyWebsocketEventV2 {
  const now = Date.now();
  return {
    requestContext: {
      routeKey,
      eventType,
      connectionId,
      messageId: crypto.randomUUID(),
      extendedRequestId: crypto.randomUUID(),
      requestId: crypto.randomUUID(),
      requestTime: new Date(now).toUTCString(),
      requestTimeEpoch: now,
      connectedAt: now,
      messageDirection: 'IN',
      stage: 'local',
      domainName: 'localhost',
      apiId: 'local',
    },
    isBase64Encoded: false,
  };
}
