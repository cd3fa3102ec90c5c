import { context as otelContext, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ExporterChoice, LoadedSdk } from './otel-sdk';
import { contextOfTraceHeader, invocationTraceHeader } from './trace-header';

/** The name of every invocation's span, as X-Ray users know it from Powertools. */
export const HANDLER_SPAN = '## handler';
/** How long the end of an invocation waits for its spans to leave: the collector is on the function's loopback. */
export const FLUSH_TIMEOUT_MS = 500;
/** The span attribute the X-Ray exporter of the collector turns into annotations (indexed, searchable). */
const XRAY_ANNOTATIONS = 'aws.xray.annotations';

export interface OtelTracingOptions {
  exporter: ExporterChoice;
  service: string;
  /** Whether a span without a parent is sampled (see TracingConfig.sampleRoots). */
  sampleRoots: boolean;
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

/** Whether `context`'s span (local or remote) is sampled. */
export const isSampled = (context: Context): boolean => ((trace.getSpanContext(context)?.traceFlags ?? 0) & TraceFlags.SAMPLED) !== 0;

/**
 * A process's OpenTelemetry tracing. The SDK (otel-sdk.ts) loads with the first sampled span: until then, and in a
 * process whose invocations are never sampled, spans are the API's non-recording ones, which cost nothing and
 * still carry the trace and its decision not to sample to what they call. Only sampled spans are recorded and
 * exported, in a batch at the end of each invocation. The active span travels with the async call chain
 * (AsyncLocalStorage), so concurrent work (the local runtime's requests, a batch's messages) keeps its own
 * parents.
 */
export class OtelTracing {
  private readonly traceHeader: () => string | undefined;
  /** Non-recording spans until the SDK is loaded: no provider is registered globally, so this is the API's no-op. */
  private readonly noopTracer = trace.getTracer('docservice');
  private sdk: Promise<LoadedSdk> | undefined;
  private loaded: LoadedSdk | undefined;
  private coldStart = true;

  constructor(private readonly options: OtelTracingOptions) {
    if (!globalContextSet) {
      // The SDK's exports suppress their own tracing through the global context: it must follow async calls.
      otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      globalContextSet = true;
    }
    this.traceHeader = options.traceHeader ?? (() => invocationTraceHeader());
    // Where roots are sampled (locally) the first span needs the SDK: it loads now, not on that span.
    if (options.sampleRoots) void this.ready().catch(() => undefined);
  }

  /** Loads the SDK once; a span that needs it waits for this. */
  ready(): Promise<LoadedSdk> {
    return (this.sdk ??= import('./otel-sdk').then(({ loadSdk }) => {
      this.loaded = loadSdk(this.options);
      return this.loaded;
    }));
  }

  /** The tracer: the SDK's once loaded, the API's no-op before. */
  get tracer(): Tracer {
    return this.loaded?.tracer ?? this.noopTracer;
  }

  /**
   * Opens the invocation's span as a child of the segment Lambda opened (the trace header), annotated with the
   * cold start and the service. When the header is not sampled the span records nothing (the SDK is not even
   * loaded for it), but still carries the decision to the calls made under it (`Sampled=0`).
   */
  async startInvocation(info: InvocationInfo = {}): Promise<InvocationTrace> {
    const coldStart = this.coldStart;
    this.coldStart = false;
    const parent = contextOfTraceHeader(this.traceHeader());
    if (isSampled(parent) || (!trace.getSpan(parent) && this.options.sampleRoots)) await this.ready().catch(() => undefined);
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
    return otelContext.with(trace.setSpan(otelContext.active(), span), () => endingSpan(span, work));
  }

  /** Waits, at most {@link FLUSH_TIMEOUT_MS}, for the finished sampled spans to be exported. */
  async flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    if (!this.loaded) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.loaded.forceFlush().catch(() => undefined), timeout]);
    clearTimeout(timer);
  }
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

/** Runs `work`, marks `span` failed if it throws, and ends it either way. */
export async function endingSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}
