import * as z from '../../zod';

/** Where finished spans go: an OTLP/HTTP receiver, the console (stdout), or nowhere. */
export const TRACE_EXPORTERS = ['otlp', 'console', 'none'] as const;
export type TraceExporterName = (typeof TRACE_EXPORTERS)[number];

/**
 * The ADOT collector Lambda layer's OTLP/HTTP receiver: the layer runs the collector as a Lambda extension on
 * the function's loopback, and it sends what it receives to X-Ray (lib/constructs/app-function.ts adds it).
 */
export const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';

export interface TracingConfig {
  exporter: TraceExporterName;
  /** The OTLP/HTTP traces URL (…/v1/traces); only used by the `otlp` exporter. */
  otlpTracesUrl: string;
  /**
   * Whether a span without a parent is sampled. In Lambda it is not: every invocation has the trace header
   * Lambda's active tracing gives it, sampled or not, and the function follows that decision. Locally every
   * request and message is a trace of its own.
   */
  sampleRoots: boolean;
  /** The `service.name` of every span. */
  serviceName: string;
}

const httpUrl = z.url({ protocol: /^https?$/u });
const flag = z.optional(z.enum(['true', 'false']));

const envSchema = z.object({
  AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
  OTEL_SDK_DISABLED: flag,
  POWERTOOLS_TRACE_ENABLED: flag,
  OTEL_TRACES_EXPORTER: z.optional(z.enum(TRACE_EXPORTERS)),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.optional(httpUrl),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.optional(httpUrl),
  POWERTOOLS_SERVICE_NAME: z.optional(z.string()),
});

/**
 * The process's tracing, from its environment (OpenTelemetry's own variable names where it has one). In Lambda
 * spans go to the ADOT collector over OTLP/HTTP unless OTEL_TRACES_EXPORTER says otherwise; elsewhere nowhere
 * unless OTEL_TRACES_EXPORTER=console (or otlp, to a collector of one's own). OTEL_SDK_DISABLED=true or
 * POWERTOOLS_TRACE_ENABLED=false turn it off. A bad value fails with one line naming the variable.
 */
export function tracingConfig(env: NodeJS.ProcessEnv = process.env): TracingConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid tracing configuration: ${problems}`);
  }
  const vars = parsed.data;
  const inLambda = Boolean(vars.AWS_LAMBDA_FUNCTION_NAME);
  const off = vars.OTEL_SDK_DISABLED === 'true' || vars.POWERTOOLS_TRACE_ENABLED === 'false';
  const base = (vars.OTEL_EXPORTER_OTLP_ENDPOINT ?? DEFAULT_OTLP_ENDPOINT).replace(/\/+$/u, '');
  return {
    exporter: off ? 'none' : (vars.OTEL_TRACES_EXPORTER ?? (inLambda ? 'otlp' : 'none')),
    otlpTracesUrl: vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${base}/v1/traces`,
    sampleRoots: !inLambda,
    serviceName: vars.POWERTOOLS_SERVICE_NAME || 'docservice',
  };
}
