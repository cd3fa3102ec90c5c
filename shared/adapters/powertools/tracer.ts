import type { Tracer } from '@aws-lambda-powertools/tracer';
import { serviceName } from './powertools-logger';

/**
 * X-Ray tracing of the AWS SDK clients (and of outgoing HTTP) through Powertools' Tracer, in Lambda only. The
 * tracer and the X-Ray SDK under it are loaded there alone: the X-Ray SDK tracks every async call once loaded,
 * which the local runtime and the tests must not pay for, and which an import at the top would do everywhere.
 * In a bundle the import stays in the file but is evaluated only when reached. POWERTOOLS_TRACE_ENABLED=false
 * turns it off; outside Lambda's execution environment the Tracer turns itself off.
 */
const wanted = (env: NodeJS.ProcessEnv): boolean => Boolean(env['AWS_LAMBDA_FUNCTION_NAME']) && env['POWERTOOLS_TRACE_ENABLED'] !== 'false';

async function lambdaTracer(): Promise<Tracer> {
  const { Tracer } = await import('@aws-lambda-powertools/tracer');
  const tracer = new Tracer({ serviceName: serviceName() });
  // A call made without the invocation's trace header (at init, or where Lambda is emulated) goes untraced
  // rather than logging an error with a stack on every call, the X-Ray SDK's default.
  tracer.provider.setContextMissingStrategy(() => undefined);
  return tracer;
}

const tracer: Tracer | undefined = wanted(process.env) ? await lambdaTracer() : undefined;

/** The process's tracer: in Lambda only, and then only if tracing is on. */
export const activeTracer = (): Tracer | undefined => (tracer?.isTracingEnabled() ? tracer : undefined);

/** `client` with each of its calls recorded as an X-Ray subsegment when tracing is active; as it is otherwise. */
export const traced = <T>(client: T): T => activeTracer()?.captureAWSv3Client(client) ?? client;
