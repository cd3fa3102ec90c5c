import type { BuildMiddleware, MiddlewareStack } from '@smithy/types';
import { markStatus, recordException } from './subsegment';
import { downstreamTraceHeader } from './trace-header';
import type { XRayTracer } from './xray-tracer';

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

/** Input fields named in the subsegment (as the X-Ray SDK names them): which table, queue or bucket was called. */
const RESOURCE_FIELDS = { TableName: 'table_name', QueueUrl: 'queue_url', Bucket: 'bucket_name' } as const;

function resourcesOf(input: unknown): Record<string, string> {
  const named: Record<string, string> = {};
  if (typeof input !== 'object' || input === null) return named;
  for (const [field, name] of Object.entries(RESOURCE_FIELDS)) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === 'string') named[name] = value;
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
 * Records each call of `client` as an `aws` subsegment of the invocation under way (service, operation, region,
 * request id, retries, the table, queue or bucket, the status) and passes the subsegment to the callee in
 * `X-Amzn-Trace-Id`, so that the service's own segment joins the trace. The middleware sits in the build step,
 * before the retries, so one subsegment spans a call with all its attempts. Outside an invocation, or when it is
 * not sampled, a call goes as it would.
 */
export function traceSdkClient<T extends TraceableClient>(client: T, tracer: XRayTracer): T {
  const service = client.config.serviceId ?? 'AWS';
  // Resolved on the first traced call and kept: the client's region does not change.
  let region: Promise<string | undefined> | undefined;
  const middleware: BuildMiddleware<object, object> = (next, context) => async (args) => {
    const subsegment = tracer.open(service, 'aws');
    if (!subsegment) return next(args);
    const request = args.request as { headers?: Record<string, string> } | undefined;
    if (request?.headers) request.headers['X-Amzn-Trace-Id'] = downstreamTraceHeader(subsegment.trace_id, subsegment.id);
    // A client without a region fails the call on its own; the trace just leaves it out.
    const resolvedRegion = await (region ??= regionOf(client.config).catch(() => undefined));
    subsegment.aws = {
      operation: (context.commandName ?? 'unknown').replace(/Command$/u, ''),
      ...(resolvedRegion ? { region: resolvedRegion } : {}),
      ...resourcesOf(args.input),
    };
    let metadata: CallMetadata | undefined;
    try {
      const result = await next(args);
      metadata = metadataOf(result.output);
      return result;
    } catch (error) {
      metadata = metadataOf(error);
      markStatus(subsegment, metadata?.httpStatusCode);
      recordException(subsegment, error, metadata?.httpStatusCode !== undefined);
      throw error;
    } finally {
      if (metadata?.requestId) subsegment.aws.request_id = metadata.requestId;
      if (metadata?.attempts) subsegment.aws.retries = metadata.attempts - 1;
      if (metadata?.httpStatusCode) subsegment.http = { response: { status: metadata.httpStatusCode } };
      tracer.close(subsegment);
    }
  };
  client.middlewareStack.add(middleware, { step: 'build', name: 'xrayTracingMiddleware', override: true });
  return client;
}
