import type { Tracer } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TracerProvider,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { LazyOtlpExporter } from './lazy-otlp-exporter';
import { xrayIdGenerator } from './xray-id-generator';

/** Where spans go: the console, an OTLP/HTTP receiver, or an exporter given (tests). */
export type ExporterChoice = 'console' | { otlpUrl: string } | SpanExporter;

export interface SdkOptions {
  exporter: ExporterChoice;
  service: string;
  /** Whether a span without a parent is sampled (see TracingConfig.sampleRoots). */
  sampleRoots: boolean;
}

/** The part of the SDK a process's tracing holds once loaded. */
export interface LoadedSdk {
  tracer: Tracer;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** How often spans are exported outside Lambda (a collector of one's own, locally). */
const BATCH_DELAY_MS = 5000;

const exporterOf = (choice: ExporterChoice): SpanExporter =>
  choice === 'console' ? new ConsoleSpanExporter() : 'otlpUrl' in choice ? new LazyOtlpExporter(choice.otlpUrl) : choice;

function processorOf({ exporter, sampleRoots }: SdkOptions): SpanProcessor {
  // The console prints each span as it ends.
  if (exporter === 'console') return new SimpleSpanProcessor({ exporter: exporterOf(exporter) });
  // In Lambda a batch leaves when the invocation ends (flush), not on a timer a frozen environment would not run.
  return new BatchSpanProcessor({ exporter: exporterOf(exporter), scheduledDelayMillis: sampleRoots ? BATCH_DELAY_MS : 60_000, maxExportBatchSize: 512 });
}

/**
 * OpenTelemetry's trace SDK as the functions use it: X-Ray-compatible ids, a parent-based sampler (in Lambda, the
 * sampling decision of the trace header Lambda gives the invocation; roots only where they are sampled), and one
 * span processor. Loaded by otel-tracing.ts on the first sampled span, so that a cold start does not carry it.
 */
export function loadSdk(options: SdkOptions): LoadedSdk {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.service, 'cloud.provider': 'aws' }),
    idGenerator: xrayIdGenerator,
    sampler: new ParentBasedSampler({ root: options.sampleRoots ? new AlwaysOnSampler() : new AlwaysOffSampler() }),
    spanProcessors: [processorOf(options)],
  });
  return { tracer: provider.getTracer('docservice'), forceFlush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
