import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** How long one export may take: the receiver is the collector on the function's loopback. */
const EXPORT_TIMEOUT_MS = 1000;

/**
 * OpenTelemetry's OTLP/HTTP trace exporter, loaded on the first export: the exporter and its OTLP encoding are
 * a chunk of their own that a cold start does not load, and a function whose invocations are not sampled
 * never loads it. A failed load or export loses those spans, never the invocation.
 */
export class LazyOtlpExporter implements SpanExporter {
  private exporter: Promise<SpanExporter> | undefined;

  constructor(private readonly url: string) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.load().then(
      (exporter) => exporter.export(spans, resultCallback),
      (error: unknown) => resultCallback({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) }),
    );
  }

  async forceFlush(): Promise<void> {
    if (this.exporter) await (await this.exporter).forceFlush?.();
  }

  async shutdown(): Promise<void> {
    if (this.exporter) await (await this.exporter).shutdown();
  }

  private load(): Promise<SpanExporter> {
    return (this.exporter ??= import('@opentelemetry/exporter-trace-otlp-http').then(
      ({ OTLPTraceExporter }) => new OTLPTraceExporter({ url: this.url, timeoutMillis: EXPORT_TIMEOUT_MS }),
    ));
  }
}
