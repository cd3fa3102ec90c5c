import { context as otelContext, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { AWSXRayPropagator } from '@opentelemetry/propagator-aws-xray';

/** The header (and its lower-case name, as the propagator reads it) that carries a trace between AWS services. */
export const TRACE_HEADER = 'X-Amzn-Trace-Id';
const HEADER_KEY = TRACE_HEADER.toLowerCase();

const propagator = new AWSXRayPropagator();
const getter = { get: (carrier: Record<string, string>, key: string) => carrier[key], keys: (carrier: Record<string, string>) => Object.keys(carrier) };
const setter = { set: (carrier: Record<string, string>, key: string, value: string) => (carrier[key] = value) };

/**
 * The context an X-Ray trace header (`Root=1-…;Parent=…;Sampled=1`) names: its trace, the span it was sent from
 * as a remote parent, and whether the trace is sampled. The root context when the header is missing or invalid.
 */
export const contextOfTraceHeader = (header: string | undefined, base: Context = ROOT_CONTEXT): Context =>
  header ? propagator.extract(base, { [HEADER_KEY]: header }, getter) : base;

/** The X-Ray trace header that continues `context`'s span elsewhere; undefined when it has none. */
export function traceHeaderOf(context: Context = otelContext.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagator.inject(context, carrier, setter);
  return carrier[HEADER_KEY];
}

/**
 * The invocation's trace header: from the Lambda runtime's invoke store when it keeps one (newer runtimes, and
 * the only place under multi-concurrency), else from `_X_AMZN_TRACE_ID`, which the runtime sets per invocation.
 */
export function invocationTraceHeader(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const runtime = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda;
  return runtime?.InvokeStore?.getXRayTraceId?.() ?? env['_X_AMZN_TRACE_ID'];
}
