/**
 * The X-Ray trace header Lambda gives each invocation (`Root=1-…;Parent=…;Sampled=1`, in the invocation's
 * context or `_X_AMZN_TRACE_ID`): the trace, the segment Lambda opened for the invocation, and whether the
 * trace is sampled (only a sampled trace's subsegments are sent).
 */
export interface TraceHeader {
  root: string;
  parent: string | undefined;
  sampled: boolean;
}

const ROOT = /^1-[0-9a-f]{8}-[0-9a-f]{24}$/u;
const SEGMENT_ID = /^[0-9a-f]{16}$/u;

/** The header's fields, or undefined when it has no valid root (no trace to join). */
export function parseTraceHeader(value: string | undefined): TraceHeader | undefined {
  if (!value) return undefined;
  const fields = new Map<string, string>();
  for (const part of value.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) fields.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  const root = fields.get('root');
  if (!root || !ROOT.test(root)) return undefined;
  const parent = fields.get('parent');
  return { root, parent: parent && SEGMENT_ID.test(parent) ? parent : undefined, sampled: fields.get('sampled') === '1' };
}

/** The header a call made inside subsegment `parentId` carries, so that the callee's segment joins the trace. */
export const downstreamTraceHeader = (root: string, parentId: string): string => `Root=${root};Parent=${parentId};Sampled=1`;

/**
 * The invocation's trace header: from the Lambda runtime's invoke store when it keeps one (newer runtimes, and
 * the only place under multi-concurrency), else from `_X_AMZN_TRACE_ID`, which the runtime sets per invocation.
 */
export function invocationTraceHeader(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const runtime = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda;
  return runtime?.InvokeStore?.getXRayTraceId?.() ?? env['_X_AMZN_TRACE_ID'];
}
