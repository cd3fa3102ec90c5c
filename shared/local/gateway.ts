import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, validationError } from '../domain/errors';
import { errorResponse } from '../http/error-response';
import { multipartTooLarge } from '../http/multipart';
import type { HttpHandler } from '../http/pipeline';
import { logger } from '../logger';
import { lambdaContext, requestTarget, toHttpApiEvent, writeResult } from './api-gateway-event';
import type { RouteTable } from './route-table';

/**
 * P's maximum request size, the local default (MAX_REQUEST_SIZE_MB). The cloud has no such setting: there API
 * Gateway's 10 MB and Lambda's 6 MB payload limits apply (see shared/http/multipart.ts).
 */
export const DEFAULT_MAX_REQUEST_BYTES = 100 * 1024 * 1024;
const HANDLER_TIMEOUT_MS = 30_000;

export interface GatewayOptions {
  routes: RouteTable;
  /** Serves the `$default` route: unknown paths and CORS preflights. */
  fallback: HttpHandler;
  /** A larger request body is 413 before any handler runs. @default DEFAULT_MAX_REQUEST_BYTES */
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
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  // Node answers an HTTP/1.1 request without Host with a bare 400 of its own; `serve` refuses it with the P body.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
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
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const answer = errorResponse(error, requestId);
      writeResult(response, { ...answer, headers: { ...answer.headers, 'x-request-id': requestId } });
    });
  });
  server.on('clientError', answerClientError);
  return server;

  async function serve(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    if (request.httpVersion === '1.1' && !request.headers.host) {
      request.resume();
      throw validationError('The request has no Host header', [{ field: 'host', reason: 'is required in HTTP/1.1' }]);
    }
    const body = await readBody(request, maxBodyBytes);
    const method = request.method ?? 'GET';
    const path = requestTarget(request.url).pathname;
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

/** Reads the whole body; one above `limit` is 413, for a multipart upload pointing to the presigned upload. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const multipart = /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');
  const tooLarge = (received: number) =>
    multipart
      ? multipartTooLarge(limit, received)
      : new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds the ${limit}-byte limit`, {
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

/** What Node's HTTP parser refuses, as the P error it becomes, with Node's own status. */
function clientErrorOf(error: NodeJS.ErrnoException): { status: number; error: AppError } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const reason = `exceed the ${maxHeaderSize}-byte limit of the request line and headers`;
    return { status: 431, error: validationError('The request headers are too large', [{ field: 'headers', reason }]) };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, error: validationError('The request was not received in time', [{ field: 'request', reason: 'was not received in time' }]) };
  }
  return { status: 400, error: validationError('The request is not valid HTTP', [{ field: 'request', reason: 'is not a valid HTTP/1.1 request' }]) };
}

/**
 * Requests that Node's parser refuses (headers over its limit, a malformed request line or header, a bad
 * chunked body) never reach a handler, and Node would answer them with a bare status line. They get the P body
 * and a request id instead, with Node's status (431 for headers, 408 for a timeout, else 400), and the
 * connection is closed, since the parser cannot tell where the next request would start.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A response already under way on this socket cannot be replaced; a reset peer cannot be answered.
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const requestId = crypto.randomUUID();
  const { status, error: refusal } = clientErrorOf(error);
  logger.debug('client error', { request_id: requestId, code: error.code, status });
  const answer = errorResponse(refusal, requestId);
  const body = Buffer.from(answer.body ?? '', 'utf8');
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
    ...Object.entries({ ...answer.headers, 'x-request-id': requestId }).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${body.length}`,
    'connection: close',
  ].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), body]));
}
