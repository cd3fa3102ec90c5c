import type { XRayDaemonClient } from './daemon-client';
import { epochSeconds, newSegmentId, recordException, type SubsegmentDocument } from './subsegment';
import { invocationTraceHeader, parseTraceHeader } from './trace-header';

/** Where a subsegment hangs: its trace and its parent's id. */
interface TraceParent {
  root: string;
  parentId: string;
}

const subsegmentOf = (name: string, { root, parentId }: TraceParent): SubsegmentDocument => ({
  type: 'subsegment',
  name,
  id: newSegmentId(),
  trace_id: root,
  parent_id: parentId,
  start_time: epochSeconds(),
});

/** The trace of one invocation, opened by `startInvocation` as its `## handler` subsegment. */
export interface InvocationTrace {
  /** Marks the invocation as failed (a fault) with `error` as its cause. */
  fail(error: unknown): void;
  /** Ends the handler subsegment, sends it and waits (briefly) for every send of the invocation to leave. */
  end(): Promise<void>;
}

export interface XRayTracerOptions {
  daemon: Pick<XRayDaemonClient, 'send' | 'flush'>;
  /** The `Service` annotation of every handler subsegment. */
  service: string;
  /** The invocation's trace header (default: the runtime's invoke store or `_X_AMZN_TRACE_ID`). */
  traceHeader?: () => string | undefined;
}

/** How long the end of an invocation waits for its subsegments to leave: UDP to a local daemon takes microseconds. */
const FLUSH_TIMEOUT_MS = 50;

/**
 * X-Ray tracing of a Lambda function without the X-Ray SDK (in maintenance since February 2026, unsupported
 * from February 2027, and 89 KB of every bundle with an async hook on every await). Lambda opens the
 * invocation's segment; each invocation becomes a `## handler` subsegment under it (annotated with the cold
 * start and the service), and each AWS or HTTP call made during it a subsegment of that, sent to the daemon
 * when it ends. Only sampled traces are sent.
 *
 * The invocation under way is the process's: a Lambda execution environment runs one invocation at a time (the
 * functions are not configured for multi-concurrency), so no async context tracking is needed.
 */
export class XRayTracer {
  private coldStart = true;
  private current: TraceParent | undefined;
  private readonly traceHeader: () => string | undefined;

  constructor(private readonly options: XRayTracerOptions) {
    this.traceHeader = options.traceHeader ?? (() => invocationTraceHeader());
  }

  /** Opens the invocation's handler subsegment; undefined when the invocation is not sampled (nothing is sent). */
  startInvocation(): InvocationTrace | undefined {
    const coldStart = this.coldStart;
    this.coldStart = false;
    const header = parseTraceHeader(this.traceHeader());
    this.current = undefined;
    if (!header?.sampled || !header.parent) return undefined;
    const subsegment = subsegmentOf('## handler', { root: header.root, parentId: header.parent });
    subsegment.annotations = { ColdStart: coldStart, Service: this.options.service };
    const parent = { root: header.root, parentId: subsegment.id };
    this.current = parent;
    return {
      fail: (error) => {
        subsegment.fault = true;
        recordException(subsegment, error);
      },
      end: async () => {
        if (this.current === parent) this.current = undefined;
        this.close(subsegment);
        await this.options.daemon.flush(FLUSH_TIMEOUT_MS);
      },
    };
  }

  /** Opens a subsegment of the invocation under way; undefined between invocations or when it is not sampled. */
  open(name: string, namespace: 'aws' | 'remote'): SubsegmentDocument | undefined {
    return this.current ? { ...subsegmentOf(name, this.current), namespace } : undefined;
  }

  /** Ends a subsegment and sends it. */
  close(subsegment: SubsegmentDocument): void {
    subsegment.end_time = epochSeconds();
    this.options.daemon.send(subsegment);
  }
}
