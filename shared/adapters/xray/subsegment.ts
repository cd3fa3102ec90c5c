import { randomBytes } from 'node:crypto';

/**
 * One X-Ray subsegment as the daemon takes it: an independent subsegment document (`type: subsegment` with its
 * trace and parent), sent on its own when it ends. Field names are X-Ray's segment document's.
 */
export interface SubsegmentDocument {
  type: 'subsegment';
  name: string;
  id: string;
  trace_id: string;
  parent_id: string;
  start_time: number;
  end_time?: number;
  namespace?: 'aws' | 'remote';
  annotations?: Record<string, string | number | boolean>;
  http?: { request?: { method: string; url: string }; response?: { status: number; content_length?: number } };
  aws?: Record<string, string | number>;
  error?: true;
  throttle?: true;
  fault?: true;
  cause?: { exceptions: { id: string; type: string; message: string; remote?: true }[] };
}

/** X-Ray segment and subsegment ids: 16 hex digits. */
export const newSegmentId = (): string => randomBytes(8).toString('hex');

/** Now, as X-Ray times segments: seconds since the epoch, with the fraction. */
export const epochSeconds = (): number => (performance.timeOrigin + performance.now()) / 1000;

/** An exception's message is cut here: a subsegment travels in one UDP datagram. */
const MAX_MESSAGE_CHARS = 1024;

/** Marks a subsegment with an HTTP status's outcome: 429 throttled (and an error), 4xx an error, 5xx a fault. */
export function markStatus(subsegment: SubsegmentDocument, status: number | undefined): void {
  if (status === undefined || status >= 500) subsegment.fault = true;
  else if (status === 429) {
    subsegment.error = true;
    subsegment.throttle = true;
  } else if (status >= 400) subsegment.error = true;
}

/** Records `error` as the subsegment's cause (its type and message; no stack: X-Ray shows the exception). */
export function recordException(subsegment: SubsegmentDocument, error: unknown, remote = false): void {
  const type = error instanceof Error ? error.name : typeof error;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_MESSAGE_CHARS);
  subsegment.cause = { exceptions: [{ id: newSegmentId(), type, message, ...(remote ? { remote: true as const } : {}) }] };
}
