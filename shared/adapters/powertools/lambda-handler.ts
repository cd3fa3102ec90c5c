import type { Context } from 'aws-lambda';
import { addLambdaContext } from './powertools-logger';
import { publishLambdaBusinessMetrics } from './powertools-metrics';
import { activeTracer } from './tracer';

/**
 * A function's Lambda entry around its handler (each `functions/<group>/index.ts`): the invocation's context
 * goes into the log lines (function, request id, cold start), the run is a `## handler` subsegment of the
 * trace annotated with the cold start and the service, and the business metrics counted during it are
 * published as embedded metrics when it ends, however it ends. The local runtime calls the handlers without it.
 */
export function lambdaEntry<E, R>(handler: (event: E, context: Context) => Promise<R>): (event: E, context: Context) => Promise<R> {
  return async (event, context) => {
    addLambdaContext(context);
    const tracer = activeTracer();
    const segment = tracer?.getSegment();
    const subsegment = segment?.addNewSubsegment('## handler');
    if (tracer && subsegment) {
      tracer.setSegment(subsegment);
      tracer.annotateColdStart();
      tracer.addServiceNameAnnotation();
    }
    try {
      return await handler(event, context);
    } catch (error) {
      if (error instanceof Error) tracer?.addErrorAsMetadata(error);
      throw error;
    } finally {
      publishLambdaBusinessMetrics();
      if (tracer && segment && subsegment) {
        subsegment.close();
        tracer.setSegment(segment);
      }
    }
  };
}
