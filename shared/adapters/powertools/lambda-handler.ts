import type { Context } from 'aws-lambda';
import { processTracing } from '../otel/process-tracing';
import { useLogWriter } from '../../observability/logger';
import { addLambdaContext, powertoolsLogWriter } from './powertools-logger';
import { publishLambdaBusinessMetrics } from './powertools-metrics';

/**
 * A function's Lambda entry around its handler (each `functions/<group>/index.ts`): the invocation's context
 * goes into the log lines (function, request id, cold start), the run is a `## handler` span in the trace
 * Lambda opened (annotated with the cold start and the service), the parent of the spans of the calls it makes,
 * and the business metrics counted during it are published as embedded metrics when it ends, however it ends;
 * then its sampled spans are exported, waited for briefly. In Lambda it hands the logger Powertools' writer, so
 * that every line of the function is Powertools' JSON. The local runtime calls the handlers without it.
 */
export function lambdaEntry<E, R>(handler: (event: E, context: Context) => Promise<R>): (event: E, context: Context) => Promise<R> {
  if (process.env['AWS_LAMBDA_FUNCTION_NAME']) useLogWriter(powertoolsLogWriter);
  return async (event, context) => {
    addLambdaContext(context);
    const trace = await processTracing?.startInvocation(context);
    try {
      return await (trace ? trace.run(() => handler(event, context)) : handler(event, context));
    } catch (error) {
      trace?.fail(error);
      throw error;
    } finally {
      publishLambdaBusinessMetrics();
      await trace?.end();
    }
  };
}
