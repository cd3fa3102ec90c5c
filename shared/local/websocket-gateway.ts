import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { WebSocketServer, type WebSocket } from 'ws';
import { logger } from '../logger';

export type WebSocketHandler = (event: APIGatewayProxyWebsocketEventV2) => Promise<APIGatewayProxyResultV2>;

/** API Gateway closes frames above 32 KB; the local gateway refuses them too. */
const MAX_FRAME_BYTES = 32 * 1024;

/**
 * The local stand-in for API Gateway's WebSocket API at `/ws`: each connection, message and disconnection
 * becomes the $connect, $default or $disconnect event of the same handler the realtime Lambda runs, and a
 * $default result body is sent back to the client, as a route response is in the cloud.
 */
export function attachWebSocketGateway(server: Server, handler: WebSocketHandler, path = '/ws'): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const connectionId = crypto.randomUUID();
    handler(wsEvent('$connect', 'CONNECT', connectionId))
      .then((result) => {
        if (statusOf(result) !== 200) {
          socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
          return;
        }
        wss.handleUpgrade(request, socket, head, (ws) => serve(ws, connectionId));
      })
      .catch((error: unknown) => {
        logger.error('websocket connect failed', { connection_id: connectionId, error });
        socket.end('HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n\r\n');
      });
  });

  function serve(ws: WebSocket, connectionId: string): void {
    ws.on('message', (data, isBinary) => {
      const body = isBinary ? Buffer.from(data as Buffer).toString('base64') : data.toString();
      handler({ ...wsEvent('$default', 'MESSAGE', connectionId), body, isBase64Encoded: isBinary })
        .then((result) => {
          const reply = typeof result === 'object' && result !== null && 'body' in result ? result.body : undefined;
          if (reply && ws.readyState === ws.OPEN) ws.send(reply);
        })
        .catch((error: unknown) => logger.error('websocket message failed', { connection_id: connectionId, error }));
    });
    ws.on('close', () => {
      handler(wsEvent('$disconnect', 'DISCONNECT', connectionId)).catch((error: unknown) =>
        logger.error('websocket disconnect failed', { connection_id: connectionId, error }),
      );
    });
  }

  return wss;
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
