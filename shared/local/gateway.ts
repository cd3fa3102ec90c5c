import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AppError } from '../domain/errors';
import { errorResponse } from '../http/error-response';
import type { HttpHandler } from '../http/pipeline';
import { logger } from '../logger';
import { lambdaContext, toHttpApiEvent, writeResult } from './api-gateway-event';
import type { RouteTable } from './route-table';

/** API Gateway refuses request bodies above 10 MB; the local gateway does the same so both behave alike. */
export const API_GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
const HANDLER_TIMEOUT_MS = 30_000;

export interface GatewayOptions {
  routes: RouteTable;
  /** Serves the `$default` route: unknown paths and CORS preflights. */
  fallback: HttpHandler;
  maxBodyBytes?: number;
  /** Serves API Gateway's WebSocket management API at `/@connections/{id}`, as the WebSocket stage does. */
  connections?: { handleManagementRequest(request: IncomingMessage, response: ServerResponse, body: Buffer): void };
}

const CONNECTIONS_PATH = '/@connections/';

/**
 * The local stand-in for API Gateway's HTTP API: each request becomes a payload 2.0 event for the same
 * handler the route's Lambda runs in the cloud, and the handler's result becomes the response.
 */
export function createGateway(options: GatewayOptions): Server {
  const maxBodyBytes = options.maxBodyBytes ?? API_GATEWAY_MAX_BODY_BYTES;
  return createServer((request, response) => {
    const requestId = crypto.randomUUID();
    // @connections calls are this process pushing to its sockets, one per connection per event: like API
    // Gateway's access log, the request log leaves them out (500 lines per event would drown it).
    if (!request.url?.startsWith(CONNECTIONS_PATH)) {
      const started = performance.now();
      response.on('finish', () =>
        logger.debug('request', {
          request_id: requestId,
          method: request.method,
          path: request.url,
          status: response.statusCode,
          ms: Math.round(performance.now() - started),
        }),
      );
    }
    serve(request, response, requestId).catch((error: unknown) => {
      if (!response.headersSent) writeResult(response, errorResponse(error, requestId));
      else response.destroy();
    });
  });

  async function serve(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const body = await readBody(request, maxBodyBytes);
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (options.connections && path.startsWith(CONNECTIONS_PATH)) {
      options.connections.handleManagementRequest(request, response, body);
      return;
    }
    const match = options.routes.match(method, path);
    const route = match ?? { routeKey: '$default', handler: options.fallback, pathParameters: {} };
    const event = toHttpApiEvent(request, body, route, requestId);
    const context = lambdaContext(route.routeKey, requestId, HANDLER_TIMEOUT_MS);
    writeResult(response, await route.handler(event, context));
  }
}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = (received: number) =>
    new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds the ${limit}-byte limit`, {
      limit_bytes: limit,
      received_bytes: received,
    });
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) {
    request.resume();
    return Promise.reject(tooLarge(declared));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        request.removeAllListeners('data');
        request.resume();
        reject(tooLarge(received));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
