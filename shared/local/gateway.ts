import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import type { Duplex } from 'node:stream';
import { AppError, noEndpoint, validationError } from '../domain/errors';
import { errorResponse } from '../http/error-response';
import { multipartTooLarge } from '../http/multipart';
import type { HttpHandler } from '../http/pipeline';
import { bearerToken } from '../http/request';
import { logger } from '../observability/logger';
import { lambdaContext, requestTarget, toHttpApiEvent, writeResult } from './api-gateway-event';
import { isApiDocsPath } from '../api-docs/files';
import type { ApiDocs } from './api-docs';
import type { ConsoleSite } from './console-site';
import {
  BODY_MEMORY_WINDOW_BYTES,
  BodyAbortedError,
  BodyTimeoutError,
  bodyTotalTimeoutMs,
  declaredLength,
  DEFAULT_BODY_IDLE_TIMEOUT_MS,
  hasBody,
  receiveBody,
  type BodyTimeouts,
  type ReceivedBody,
} from './request-body';
import type { RouteMatch, RouteTable } from './route-table';

/**
 * P's maximum request size, the local default (MAX_REQUEST_SIZE_MB). The cloud has no such setting: there API
 * Gateway's 10 MB and Lambda's 6 MB payload limits apply (see shared/http/multipart.ts).
 */
export const DEFAULT_MAX_REQUEST_BYTES = 100 * 1024 * 1024;
const HANDLER_TIMEOUT_MS = 30_000;
/**
 * Node's own bound on receiving a whole request (its default, 300 s) stays behind the body's, as a backstop that
 * also covers the headers and the wait for the token check; it is answered 408 by {@link answerClientError}.
 */
const NODE_REQUEST_TIMEOUT_MS = 300_000;
const NODE_REQUEST_TIMEOUT_MARGIN_MS = 60_000;

export interface GatewayOptions {
  routes: RouteTable;
  /** Serves the `$default` route: unknown paths and CORS preflights. */
  fallback: HttpHandler;
  /** A larger request body is 413 before any handler runs. @default DEFAULT_MAX_REQUEST_BYTES */
  maxBodyBytes?: number;
  /**
   * Checks a bearer token as the handlers do (the request gate's `authenticate`). A body sent to a route that needs
   * a token is read only once this accepts the token; without it only a missing token is refused unread.
   */
  authenticate?: (token: string) => Promise<unknown>;
  /** Where a body past the memory window is spooled while it arrives. @default the OS temp folder */
  spoolDir?: string;
  /** When a body that stops arriving is cut off with 408. @default 30 s idle, {@link bodyTotalTimeoutMs} in all */
  bodyTimeouts?: Partial<BodyTimeouts>;
  /** Serves API Gateway's WebSocket management API at `/@connections/{id}`, as the WebSocket stage does. */
  connections?: { handleManagementRequest(request: IncomingMessage, response: ServerResponse, body: Buffer): void };
  /**
   * The API contract and its Swagger UI (shared/local/api-docs.ts), answered before routing: static files, so no
   * handler and no rate limit. What it does not answer goes on to the routes and the fallback.
   */
  apiDocs?: ApiDocs;
  /** The web console's page and assets (shared/local/console-site.ts), answered like the API docs: static, before routing. */
  consoleSite?: ConsoleSite;
}

const CONNECTIONS_PATH = '/@connections/';
/** How long a connection closed behind an answer still drops what its client sends (see closeBehindAnswer). */
const LINGER_MS = 2_000;
const NO_BODY = Buffer.alloc(0);

/**
 * The local stand-in for API Gateway's HTTP API: each request becomes a payload 2.0 event for the same
 * handler the route's Lambda runs in the cloud, and the handler's result becomes the response.
 *
 * A body is read only once its route is known and, where the route needs a token, the token is accepted: a
 * request the handler would refuse before its body (no route, no valid token) is answered at once and its
 * connection closed, unread. A body is held in memory up to a small window and spooled to `spoolDir` past it,
 * and one that stops arriving is cut off with 408 (see {@link GatewayOptions.bodyTimeouts}).
 */
export function createGateway(options: GatewayOptions): Server {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const timeouts: BodyTimeouts = {
    idleMs: options.bodyTimeouts?.idleMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
    totalMs: options.bodyTimeouts?.totalMs ?? bodyTotalTimeoutMs(maxBodyBytes),
  };
  // Node answers an HTTP/1.1 request without Host with a bare 400 of its own; `serve` refuses it with the P body.
  const serverOptions = { requireHostHeader: false, requestTimeout: Math.max(NODE_REQUEST_TIMEOUT_MS, timeouts.totalMs + NODE_REQUEST_TIMEOUT_MARGIN_MS) };
  const server = createServer(serverOptions, (request, response) => {
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
    serve(request, response, requestId).catch((error: unknown) => answerFailure(request, response, requestId, error));
  });
  server.on('clientError', answerClientError);
  return server;

  async function serve(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    if (request.httpVersion === '1.1' && !request.headers.host) {
      request.resume();
      throw validationError('The request has no Host header', [{ field: 'host', reason: 'is required in HTTP/1.1' }]);
    }
    const withBody = hasBody(request);
    // A body declared over the limit is refused first, whatever the route: receiving it rejects at once.
    if (withBody && declaredLength(request) > maxBodyBytes) await receive(request);
    const method = request.method ?? 'GET';
    const path = requestTarget(request.url).pathname;
    if (options.connections && path.startsWith(CONNECTIONS_PATH)) {
      const connections = options.connections;
      await withReceivedBody(request, withBody, (body) => connections.handleManagementRequest(request, response, body));
      return;
    }
    // The contract's paths answer GET and HEAD only: a preflight there gets the P 404, as at the edge.
    if (options.apiDocs && method === 'OPTIONS' && isApiDocsPath(path)) {
      if (withBody) closeBehindAnswer(request, response);
      const refusal = errorResponse(noEndpoint(method, path), requestId);
      writeResult(response, { ...refusal, headers: { ...refusal.headers, 'x-request-id': requestId } });
      return;
    }
    const file = (await options.apiDocs?.answer(method, path, request.headers)) ?? (await options.consoleSite?.answer(method, path, request.headers));
    if (file) {
      // A body sent with a GET is never read: the answer does not depend on it.
      if (withBody) closeBehindAnswer(request, response);
      response.writeHead(file.status, { ...file.headers, 'x-request-id': requestId }).end(file.body);
      return;
    }
    const match = options.routes.match(method, path);
    const route: RouteMatch = match ?? { routeKey: '$default', handler: options.fallback, authenticated: false, pathParameters: {} };
    const bare = toHttpApiEvent(request, NO_BODY, route, requestId);
    // The fallback never reads a body, nor does a handler that refuses the caller's token: their answer is the
    // same without it, so the body is left unread and the connection closed behind the answer.
    if (withBody && (!match || (match.authenticated && (await refusesToken(bare))))) {
      closeBehindAnswer(request, response);
      writeResult(response, await route.handler(bare, lambdaContext(route.routeKey, requestId, HANDLER_TIMEOUT_MS)));
      return;
    }
    await withReceivedBody(request, withBody, async (body) => {
      const event = body.length ? toHttpApiEvent(request, body, route, requestId) : bare;
      writeResult(response, await route.handler(event, lambdaContext(route.routeKey, requestId, HANDLER_TIMEOUT_MS)));
    });
  }

  /**
   * Whether the route's handler would surely refuse the request's token before reading its body: none at all,
   * or one the token check refuses as UNAUTHORIZED (invalid, expired, revoked, of a changed password). A check
   * that fails otherwise (a store that does not answer) refuses nothing: the handler decides, with the body.
   */
  async function refusesToken(event: APIGatewayProxyEventV2): Promise<boolean> {
    const token = bearerToken(event);
    if (!token) return true;
    if (!options.authenticate) return false;
    try {
      await options.authenticate(token);
      return false;
    } catch (error) {
      return error instanceof AppError && error.code === 'UNAUTHORIZED';
    }
  }

  /** Runs `use` with the whole body (empty when the request has none), and removes its spool file after. */
  async function withReceivedBody(request: IncomingMessage, withBody: boolean, use: (body: Buffer) => unknown): Promise<void> {
    if (!withBody) {
      await use(NO_BODY);
      return;
    }
    const received = await receive(request);
    try {
      await use(await received.bytes());
    } finally {
      await received.dispose();
    }
  }

  function receive(request: IncomingMessage): Promise<ReceivedBody> {
    const multipart = /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');
    return receiveBody(request, {
      ...timeouts,
      maxBytes: maxBodyBytes,
      memoryWindowBytes: BODY_MEMORY_WINDOW_BYTES,
      spoolDir: options.spoolDir ?? tmpdir(),
      // A multipart upload's refusal points to the presigned upload.
      tooLarge: (received) =>
        multipart
          ? multipartTooLarge(maxBodyBytes, received)
          : new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds the ${maxBodyBytes}-byte limit`, {
              limit_bytes: maxBodyBytes,
              received_bytes: received,
            }),
    });
  }
}

/**
 * Answers a request that failed outside its handler with the P body and its request id: a body that stopped
 * arriving is 408 and its connection closed (its rest is never read); a client that went away gets nothing.
 */
function answerFailure(request: IncomingMessage, response: ServerResponse, requestId: string, error: unknown): void {
  if (error instanceof BodyAbortedError) {
    logger.debug('request body aborted', { request_id: requestId, received_bytes: error.receivedBytes });
    return;
  }
  if (response.headersSent || request.socket.destroyed) {
    response.destroy();
    return;
  }
  const timedOut = error instanceof BodyTimeoutError;
  const answer = errorResponse(timedOut ? requestTimedOut() : error, requestId);
  if (timedOut) {
    logger.debug('request body timed out', { request_id: requestId, bound: error.bound, received_bytes: error.receivedBytes });
    answer.statusCode = 408;
    closeBehindAnswer(request, response);
  }
  writeResult(response, { ...answer, headers: { ...answer.headers, 'x-request-id': requestId } });
}

/**
 * Answers with `Connection: close` and ends the connection behind the answer without reading the rest of the
 * body, yet without resetting it under a client still sending: Node would destroy the socket as soon as the
 * answer is out, and a client whose write then fails (EPIPE) may never read the answer. So the socket is only
 * half-closed, and whatever still arrives is dropped (never buffered) until the client closes its side or
 * {@link LINGER_MS} pass (a lingering close, as Apache and nginx do).
 */
function closeBehindAnswer(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('connection', 'close');
  const socket = request.socket;
  // Node calls destroySoon once a `Connection: close` answer is finished.
  socket.destroySoon = () => {
    socket.end();
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(linger));
  };
}

const requestTimedOut = (): AppError =>
  validationError('The request was not received in time', [{ field: 'request', reason: 'was not received in time' }]);

/** What Node's HTTP parser refuses, as the P error it becomes, with Node's own status. */
function clientErrorOf(error: NodeJS.ErrnoException): { status: number; error: AppError } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const reason = `exceed the ${maxHeaderSize}-byte limit of the request line and headers`;
    return { status: 431, error: validationError('The request headers are too large', [{ field: 'headers', reason }]) };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, error: requestTimedOut() };
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
