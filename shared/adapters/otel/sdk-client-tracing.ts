import { context as otelContext, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { BuildMiddleware, InitializeMiddleware, MiddlewareStack } from '@smithy/types';
import { addTraceToMessages } from './message-tracing';
import { failSpan, type OtelTracing } from './otel-tracing';
import { TRACE_HEADER, traceHeaderOf } from './trace-header';

interface CallMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
}

/** What of an AWS SDK v3 client the tracing reads and extends. */
export interface TraceableClient {
  config: { serviceId?: string; region?: unknown };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every client's stack, whatever its commands' types
  middlewareStack: MiddlewareStack<any, any>;
}

/** Input fields recorded on the span (OpenTelemetry's AWS SDK attribute names): which table, queue or bucket. */
const RESOURCE_ATTRIBUTES = { TableName: 'aws.dynamodb.table_names', QueueUrl: 'aws.sqs.queue_url', Bucket: 'aws.s3.bucket' } as const;

function resourcesOf(input: unknown): Attributes {
  const named: Attributes = {};
  if (typeof input !== 'object' || input === null) return named;
  for (const [field, name] of Object.entries(RESOURCE_ATTRIBUTES)) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === 'string') named[name] = field === 'TableName' ? [value] : value;
  }
  return named;
}

const metadataOf = (value: unknown): CallMetadata | undefined =>
  typeof value === 'object' && value !== null ? ((value as { $metadata?: CallMetadata }).$metadata ?? undefined) : undefined;

async function regionOf(config: TraceableClient['config']): Promise<string | undefined> {
  const region = typeof config.region === 'function' ? await (config.region as () => Promise<unknown>)() : config.region;
  return typeof region === 'string' ? region : undefined;
}

/**
 * Records each call of `client` as a client span of the span active when it is sent (service, operation,
 * region, request id, retries, the table, queue or bucket, the HTTP status), OpenTelemetry's `aws-api`
 * attributes, and passes the span to the callee in `X-Amzn-Trace-Id` so that the service's own segment joins the
 * trace. An SQS message sent also carries the span in a message attribute (message-tracing.ts), so that its
 * consumer continues the trace. The span opens before the retries, so one span covers a call with all its
 * attempts. Outside any span (in Lambda, between invocations) a call goes as it would.
 */
export function traceSdkClient<T extends TraceableClient>(client: T, tracing: OtelTracing): T {
  const service = client.config.serviceId ?? 'AWS';
  // Resolved on the first traced call and kept: the client's region does not change.
  let region: Promise<string | undefined> | undefined;
  const open: InitializeMiddleware<object, object> = (next, context) => async (args) => {
    const operation = (context.commandName ?? 'unknown').replace(/Command$/u, '');
    const span = tracing.startSpan(`${service}.${operation}`, SpanKind.CLIENT, {
      'rpc.system': 'aws-api',
      'rpc.service': service,
      'rpc.method': operation,
      ...resourcesOf(args.input),
    });
    if (!span) return next(args);
    const active = trace.setSpan(otelContext.active(), span);
    const input = service === 'SQS' ? addTraceToMessages(operation, args.input, traceHeaderOf(active)) : args.input;
    // A client without a region fails the call on its own; the trace just leaves it out.
    const resolvedRegion = await (region ??= regionOf(client.config).catch(() => undefined));
    if (resolvedRegion) span.setAttribute('cloud.region', resolvedRegion);
    let metadata: CallMetadata | undefined;
    try {
      const result = await otelContext.with(active, () => next({ ...args, input }));
      metadata = metadataOf(result.output);
      return result;
    } catch (error) {
      metadata = metadataOf(error);
      failSpan(span, error);
      throw error;
    } finally {
      if (metadata?.requestId) span.setAttribute('aws.request_id', metadata.requestId);
      if (metadata?.attempts) span.setAttribute('aws.retries', metadata.attempts - 1);
      if (metadata?.httpStatusCode) span.setAttribute('http.response.status_code', metadata.httpStatusCode);
      if (metadata?.httpStatusCode === 429) span.setStatus({ code: SpanStatusCode.ERROR, message: 'throttled' });
      span.end();
    }
  };
  // In the build step, once the request exists: the header names the span active there (the call's).
  const header: BuildMiddleware<object, object> = (next) => async (args) => {
    const request = args.request as { headers?: Record<string, string> } | undefined;
    const value = traceHeaderOf();
    if (request?.headers && value) request.headers[TRACE_HEADER] = value;
    return next(args);
  };
  client.middlewareStack.add(open, { step: 'initialize', priority: 'high', name: 'otelSpanMiddleware', override: true });
  client.middlewareStack.add(header, { step: 'build', name: 'otelTraceHeaderMiddleware', override: true });
  return client;
}
