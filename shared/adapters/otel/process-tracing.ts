import { traceOutgoingHttp } from './http-tracing';
import type { ExporterChoice } from './otel-sdk';
import { OtelTracing } from './otel-tracing';
import { traceSdkClient, type TraceableClient } from './sdk-client-tracing';
import { tracingConfig, type TracingConfig } from './tracing-config';

const exporterOf = (config: TracingConfig): ExporterChoice => (config.exporter === 'console' ? 'console' : { otlpUrl: config.otlpTracesUrl });

/** The tracing `env` asks for (tracing-config.ts), with the outgoing HTTP calls traced; undefined when off. */
export function createProcessTracing(env: NodeJS.ProcessEnv): OtelTracing | undefined {
  const config = tracingConfig(env);
  if (config.exporter === 'none') return undefined;
  const tracing = new OtelTracing({ exporter: exporterOf(config), service: config.serviceName, sampleRoots: config.sampleRoots });
  traceOutgoingHttp(tracing);
  return tracing;
}

/** The process's tracing, decided once, at load: in Lambda unless turned off; locally only when asked for. */
export const processTracing: OtelTracing | undefined = createProcessTracing(process.env);

/** `client` with each of its calls recorded as a span when the process traces; as it is otherwise. */
export const traced = <T extends TraceableClient>(client: T): T => (processTracing ? traceSdkClient(client, processTracing) : client);

/**
 * Runs `work` (a request the local runtime serves) in a span named `name` when the process traces and no span is
 * active; in Lambda the invocation's span is already active, and `work` runs as it is.
 */
export const inRequestSpan = <T>(name: string, work: () => Promise<T>): Promise<T> => (processTracing ? processTracing.inRootSpan(name, work) : work());
