import { AsyncLocalStorage } from 'node:async_hooks';
import type { SQSRecord } from 'aws-lambda';

/**
 * Fields every log line of a unit of work carries (`request_id` above all), kept per async call chain rather
 * than on the logger: the local runtime serves many requests and queue messages at once in one process, so a
 * logger-wide "append key" would give one request's id to another's lines.
 */
export type LogContext = Readonly<Record<string, string>>;

const contexts = new AsyncLocalStorage<LogContext>();

/** Runs `work` with `fields` added to the log context of everything it calls (inner fields win). */
export const withLogContext = <T>(fields: LogContext, work: () => T): T => contexts.run({ ...contexts.getStore(), ...fields }, work);

/** The log context of the current call chain; empty outside any. */
export const currentLogContext = (): LogContext => contexts.getStore() ?? {};

/**
 * The SQS message attribute that carries the id of the request that sent a message, so the consumer's lines
 * can be found with the request's (one field name in logs and on the wire).
 */
export const REQUEST_ID_ATTRIBUTE = 'request_id';

/** A message attribute as the SQS API takes it (structurally the SDK's `MessageAttributeValue`). */
interface StringAttribute {
  DataType: 'String';
  StringValue: string;
}

/**
 * The message attributes a message sent now should carry: the current request id, if the send happens within
 * a request; none otherwise (a scheduled run, a tool).
 */
export function requestIdMessageAttributes(): Record<string, StringAttribute> | undefined {
  const requestId = currentLogContext()['request_id'];
  return requestId ? { [REQUEST_ID_ATTRIBUTE]: { DataType: 'String', StringValue: requestId } } : undefined;
}

/** The log context of processing one SQS record: its message id, and the request id it was sent with. */
export function recordLogContext(record: SQSRecord): LogContext {
  const requestId = record.messageAttributes?.[REQUEST_ID_ATTRIBUTE]?.stringValue;
  return { message_id: record.messageId, ...(requestId ? { request_id: requestId } : {}) };
}
