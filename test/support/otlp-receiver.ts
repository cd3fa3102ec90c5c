import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './until';

/** An OTLP attribute value as the JSON encoding carries it. */
interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}

/** One span as received, its attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string }[];
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The OTLP/HTTP traces URL, as OTEL_EXPORTER_OTLP_TRACES_ENDPOINT takes it. */
  tracesUrl: string;
  /** Every span received so far, in order. */
  spans: ReceivedSpan[];
  /** Every export request's headers. */
  requests: IncomingHttpHeaders[];
  /** Waits (bounded) until `count` spans satisfy `accept`, and answers them. */
  received(accept: (span: ReceivedSpan) => boolean, count?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

const valueOf = (value: OtlpValue | undefined): unknown => {
  if (!value) return undefined;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
};

const flatten = (attributes: { key: string; value: OtlpValue }[] | undefined): Record<string, unknown> =>
  Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, valueOf(value)]));

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
  status?: { code?: number };
  events?: { name: string; attributes?: { key: string; value: OtlpValue }[] }[];
  links?: { traceId: string; spanId: string }[];
}

interface ExportRequest {
  resourceSpans?: { resource?: { attributes?: { key: string; value: OtlpValue }[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

/**
 * An OTLP/HTTP receiver on loopback standing where the ADOT collector listens in Lambda: it takes the JSON
 * encoding (the exporter's default) on /v1/traces and keeps each span, as the collector would pass it on.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push(request.headers);
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = flatten(resourceSpans.resource?.attributes);
        for (const span of (resourceSpans.scopeSpans ?? []).flatMap((scope) => scope.spans ?? [])) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: flatten(span.attributes),
            statusCode: span.status?.code ?? 0,
            events: (span.events ?? []).map((event) => ({ name: event.name, attributes: flatten(event.attributes) })),
            links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
            resource,
          });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tracesUrl: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    requests,
    async received(accept, count = 1) {
      await until(() => spans.filter(accept).length >= count, 10_000, `${count} span(s)`);
      return spans.filter(accept);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
