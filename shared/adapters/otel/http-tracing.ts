import { subscribe as subscribeChannel } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { context as otelContext, createContextKey, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { failSpan, type OtelTracing } from './otel-tracing';

/** The header every AWS SDK v3 request carries: those calls have their own span (sdk-client-tracing.ts). */
const SDK_REQUEST_HEADER = 'amz-sdk-invocation-id';

interface UndiciRequest {
  origin: string;
  method: string;
  path: string;
  headers: string | string[];
}

/**
 * The context key the SDK sets while it exports (@opentelemetry/core's suppressTracing; API keys are global
 * symbols), read here so that a cold start need not load the SDK's core for it.
 */
const SUPPRESS_TRACING = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/** A URL as a span shows it: without its query, which may carry a signature or a code. */
const withoutQuery = (path: string): string => path.split('?', 1)[0] ?? '';

const undiciHasHeader = (headers: string | string[], name: string): boolean =>
  Array.isArray(headers)
    ? headers.some((value, index) => index % 2 === 0 && value.toLowerCase() === name)
    : headers.toLowerCase().includes(`${name}:`);

/**
 * Records the calls made with node's http client (the WebDAV client, the OpenSearch client) and with `fetch`
 * (openid-client) as client spans of the span active when they start (method, URL without its query, server,
 * status). Node publishes both on diagnostics channels, so nothing is patched. The exporter's own requests are
 * left out (the SDK suppresses tracing while it exports). Subscribes once per tracing.
 */
export function traceOutgoingHttp(tracing: OtelTracing): void {
  const open = new WeakMap<object, Span>();
  // A subscriber's error would surface as an uncaught exception and end the process: no trace is worth that.
  const subscribe = (name: string, onMessage: (message: unknown) => void): void =>
    subscribeChannel(name, (message) => {
      try {
        onMessage(message);
      } catch {
        // the call goes untraced
      }
    });
  const start = (request: object, method: string, url: URL): void => {
    if (otelContext.active().getValue(SUPPRESS_TRACING) === true) return;
    const span = tracing.startSpan(method, SpanKind.CLIENT, {
      'http.request.method': method,
      'url.full': `${url.origin}${withoutQuery(url.pathname)}`,
      'server.address': url.hostname,
      ...(url.port ? { 'server.port': Number(url.port) } : {}),
    });
    if (span) open.set(request, span);
  };
  const end = (request: object, status: number | undefined, error?: unknown): void => {
    const span = open.get(request);
    if (!span) return;
    open.delete(request);
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (error !== undefined) failSpan(span, error);
    else if (status !== undefined && status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };

  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: ClientRequest };
    if (request.getHeader(SDK_REQUEST_HEADER) !== undefined) return;
    const authority = request.getHeader('host') ?? request.host; // the Host header names the port too
    start(request, request.method, new URL(`${request.protocol}//${String(authority)}${request.path}`));
  });
  subscribe('http.client.response.finish', (message) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    end(request, response.statusCode);
  });
  subscribe('http.client.request.error', (message) => {
    const { request, error } = message as { request: ClientRequest; error: unknown };
    end(request, undefined, error);
  });

  subscribe('undici:request:create', (message) => {
    const { request } = message as { request: UndiciRequest };
    if (undiciHasHeader(request.headers, SDK_REQUEST_HEADER)) return;
    start(request, request.method, new URL(`${request.origin}${request.path}`));
  });
  subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
    end(request, response.statusCode);
  });
  subscribe('undici:request:error', (message) => {
    const { request, error } = message as { request: UndiciRequest; error: unknown };
    end(request, undefined, error);
  });
}
