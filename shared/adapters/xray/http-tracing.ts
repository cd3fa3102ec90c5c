import { subscribe as subscribeChannel } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { markStatus, recordException, type SubsegmentDocument } from './subsegment';
import type { XRayTracer } from './xray-tracer';

/** The header every AWS SDK v3 request carries: those calls have their own `aws` subsegment (sdk-client-tracing.ts). */
const SDK_REQUEST_HEADER = 'amz-sdk-invocation-id';

interface UndiciRequest {
  origin: string;
  method: string;
  path: string;
  headers: string | string[];
}

/** A URL as a subsegment shows it: without its query, which may carry a signature or a code. */
const withoutQuery = (path: string): string => path.split('?', 1)[0] ?? '';

const undiciHasHeader = (headers: string | string[], name: string): boolean =>
  Array.isArray(headers)
    ? headers.some((value, index) => index % 2 === 0 && value.toLowerCase() === name)
    : headers.toLowerCase().includes(`${name}:`);

/**
 * Records the calls made with node's http client (the WebDAV client, the OpenSearch client) and with `fetch`
 * (openid-client) as `remote` subsegments of the invocation under way, named by the host as the X-Ray SDK names
 * them: method, URL without its query, status. Node publishes both on diagnostics channels, so nothing is
 * patched. Subscribes once per tracer.
 */
export function traceOutgoingHttp(tracer: XRayTracer): void {
  const open = new WeakMap<object, SubsegmentDocument>();
  // A subscriber's error would surface as an uncaught exception and end the process: no trace is worth that.
  const subscribe = (name: string, onMessage: (message: unknown) => void): void =>
    subscribeChannel(name, (message) => {
      try {
        onMessage(message);
      } catch {
        // the call goes untraced
      }
    });
  const end = (request: object, status: number | undefined, error?: unknown): void => {
    const subsegment = open.get(request);
    if (!subsegment) return;
    open.delete(request);
    if (status !== undefined) subsegment.http = { ...subsegment.http, response: { status } };
    markStatus(subsegment, status);
    if (error !== undefined) recordException(subsegment, error);
    tracer.close(subsegment);
  };

  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: ClientRequest };
    if (request.getHeader(SDK_REQUEST_HEADER) !== undefined) return;
    const subsegment = tracer.open(request.host, 'remote');
    if (!subsegment) return;
    const authority = request.getHeader('host') ?? request.host; // the Host header names the port too
    subsegment.http = { request: { method: request.method, url: `${request.protocol}//${String(authority)}${withoutQuery(request.path)}` } };
    open.set(request, subsegment);
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
    const subsegment = tracer.open(new URL(request.origin).hostname, 'remote');
    if (!subsegment) return;
    subsegment.http = { request: { method: request.method, url: `${request.origin}${withoutQuery(request.path)}` } };
    open.set(request, subsegment);
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
