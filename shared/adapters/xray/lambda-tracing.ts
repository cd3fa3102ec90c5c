import { serviceName } from '../powertools/powertools-logger';
import { parseDaemonAddress, XRayDaemonClient } from './daemon-client';
import { traceOutgoingHttp } from './http-tracing';
import { traceSdkClient, type TraceableClient } from './sdk-client-tracing';
import { XRayTracer } from './xray-tracer';

/**
 * Whether this process traces: in Lambda (where the function's active tracing opens each invocation's segment)
 * unless POWERTOOLS_TRACE_ENABLED=false. The local runtime and the tests never trace.
 */
export const tracingWanted = (env: NodeJS.ProcessEnv): boolean =>
  Boolean(env['AWS_LAMBDA_FUNCTION_NAME']) && env['POWERTOOLS_TRACE_ENABLED'] !== 'false';

function lambdaTracer(env: NodeJS.ProcessEnv): XRayTracer {
  const tracer = new XRayTracer({ daemon: new XRayDaemonClient(parseDaemonAddress(env['AWS_XRAY_DAEMON_ADDRESS'])), service: serviceName(env) });
  traceOutgoingHttp(tracer);
  return tracer;
}

/** The process's tracer: in Lambda only, and then only if tracing is on (decided once, at load). */
export const lambdaTracing: XRayTracer | undefined = tracingWanted(process.env) ? lambdaTracer(process.env) : undefined;

/** `client` with each of its calls recorded as an X-Ray subsegment when the process traces; as it is otherwise. */
export const traced = <T extends TraceableClient>(client: T): T => (lambdaTracing ? traceSdkClient(client, lambdaTracing) : client);
