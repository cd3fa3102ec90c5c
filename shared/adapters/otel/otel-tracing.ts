import { context as otelContext, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TracerProvider,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { contextOfTraceHeader, invocationTraceHeader } from './trace-header';
import { xrayIdGenerator } from './xray-id-generator';

/** The name of every invocation's span, as X-Ray users know it from Powertools. */
export const HANDLER_SPAN = '## handler';
/** How long the end of an invocation waits for its spans to leave: the collector is on the function's loopback. */
export const FLUSH_TIMEOUT_MS = 500;
/** The span attribute the X-Ray exporter of the collector turns into annotations (indexed, searchable). */
const XRAY_ANNOTATIONS = 'aws.xray.annotations';

export interface OtelTracingOptions {
  exporter: SpanExporter;
  service: string;
  /** Whether a span without a parent is sampled (see TracingConfig.sampleRoots). */
  sampleRoots: boolean;
  /**
   * Each span exported as it ends (the console, locally) rather than in batches: in Lambda when the invocation
   * ends ({@link InvocationTrace.end}), elsewhere every few seconds.
   */
  exportEachSpan?: boolean;
  /** The invocation's X-Ray trace header (default: the runtime's invoke store or `_X_AMZN_TRACE_ID`). */
  traceHeader?: () => string | undefined;
}

/** What the invocation's span records of the Lambda context. */
export interface InvocationInfo {
  awsRequestId?: string;
  functionName?: string;
}

/** The trace of one invocation, opened by {@link OtelTracing.startInvocation}. */
export interface InvocationTrace {
  /** Runs `work` with the invocation's span as the parent of every span it opens. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Marks the invocation as failed, with `error` as an exception event. */
  fail(error: unknown): void;
  /** Ends the invocation's span and waits, at most {@link FLUSH_TIMEOUT_MS}, for the sampled spans to leave. */
  end(): Promise<void>;
}

let globalContextSet = false;

/**
 * A process's OpenTelemetry tracing: one tracer provider with X-Ray-compatible ids, a parent-based sampler (in
 * Lambda, the sampling decision of the trace header Lambda gives the invocation), and a batch of the finished
 * sampled spans exported at the end of each invocation. Spans that are not sampled are never recorded nor sent.
 * The active span travels with the async call chain (AsyncLocalStorage), so concurrent work (the local runtime's
 * requests, a batch's messages) keeps its own parents.
 */
export class OtelTracing {
  readonly tracer: Tracer;
  private readonly provider: TracerProvider;
  private readonly traceHeader: () => string | undefined;
  private coldStart = true;

  constructor(private readonly options: OtelTracingOptions) {
    if (!globalContextSet) {
      // The SDK's exports suppress their own tracing through the global context: it must follow async calls.
      otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      globalContextSet = true;
    }
    const root = options.sampleRoots ? new AlwaysOnSampler() : new AlwaysOffSampler();
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': options.service, 'cloud.provider': 'aws' }),
      idGenerator: xrayIdGenerator,
      sampler: new ParentBasedSampler({ root }),
      spanProcessors: [processorOf(options)],
    });
    this.tracer = this.provider.getTracer('docservice');
    this.traceHeader = options.traceHeader ?? (() => invocationTraceHeader());
  }

  /**
   * Opens the invocation's span as a child of the segment Lambda opened (the trace header), annotated with the
   * cold start and the service. When the header is not sampled the span records nothing, but still carries the
   * decision to the calls made under it (their `X-Amzn-Trace-Id` says `Sampled=0`).
   */
  startInvocation(info: InvocationInfo = {}): InvocationTrace {
    const coldStart = this.coldStart;
    this.coldStart = false;
    const parent = contextOfTraceHeader(this.traceHeader());
    const span = this.tracer.startSpan(
      HANDLER_SPAN,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'faas.coldstart': coldStart,
          'service.name': this.options.service,
          ...(info.awsRequestId ? { 'faas.invocation_id': info.awsRequestId } : {}),
          ...(info.functionName ? { 'faas.name': info.functionName } : {}),
          [XRAY_ANNOTATIONS]: ['faas.coldstart', 'service.name'],
        },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);
    return {
      run: (work) => otelContext.with(active, work),
      fail: (error) => failSpan(span, error),
      end: async () => {
        span.end();
        await this.flush();
      },
    };
  }

  /**
   * Opens a span under `parent` (default: the active one); undefined when there is no parent and roots are not
   * sampled (in Lambda, a call made between invocations). Under a parent that is not sampled the span records
   * nothing and is never sent, but passes the decision on to what it calls.
   */
  startSpan(name: string, kind: SpanKind, attributes: Attributes, parent: Context = otelContext.active()): Span | undefined {
    if (!trace.getSpan(parent) && !this.options.sampleRoots) return undefined;
    return this.tracer.startSpan(name, { kind, attributes }, parent);
  }

  /**
   * Runs `work` in a span of its own when no span is active (locally, a request or a message the runtime serves:
   * in Lambda the invocation's span is already there); as it is otherwise.
   */
  inRootSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (trace.getSpan(otelContext.active())) return work();
    const span = this.startSpan(name, SpanKind.SERVER, {});
    if (!span) return work();
    return otelContext.with(trace.setSpan(otelContext.active(), span), async () => {
      try {
        return await work();
      } catch (error) {
        failSpan(span, error);
        throw error;
      } finally {
        span.end();
      }
    });
  }

  /** Waits, at most {@link FLUSH_TIMEOUT_MS}, for the finished sampled spans to be exported. */
  async flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.provider.forceFlush().catch(() => undefined), timeout]);
    clearTimeout(timer);
  }

  /** Ends the provider (tests): later spans are dropped. */
  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

/** How often spans are exported outside Lambda (a collector of one's own, locally). */
const BATCH_DELAY_MS = 5000;

function processorOf({ exporter, exportEachSpan, sampleRoots }: OtelTracingOptions): SpanProcessor {
  if (exportEachSpan) return new SimpleSpanProcessor({ exporter });
  // In Lambda a batch leaves when the invocation ends (flush), not on a timer a frozen environment would not run.
  return new BatchSpanProcessor({ exporter, scheduledDelayMillis: sampleRoots ? BATCH_DELAY_MS : 60_000, maxExportBatchSize: 512 });
}

/** An exception's message is cut here: a span travels in one export. */
const MAX_MESSAGE_CHARS = 1024;

/** Marks `span` as failed with `error` (its type and message; no stack: the logs have it). */
export function failSpan(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.name : typeof error;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_MESSAGE_CHARS);
  span.recordException({ name: type, message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}
