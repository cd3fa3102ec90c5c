import { context as otelContext, SpanKind, trace } from '@opentelemetry/api';
import type { SQSRecord } from 'aws-lambda';
import { endingSpan, isSampled, type OtelTracing } from './otel-tracing';
import { contextOfTraceHeader } from './trace-header';

/**
 * The message attribute that carries the X-Ray trace header of the span that sent a message. SQS also keeps the
 * sender's `X-Amzn-Trace-Id` as the `AWSTraceHeader` system attribute, but Lambda only links the consumer's
 * trace to it (a trace of its own per invocation), and the SQS emulator keeps no system attribute; one message
 * attribute (of the ten SQS allows) makes the consumer's span a child of the sender's, in the same trace.
 */
export const TRACE_HEADER_ATTRIBUTE = 'trace_header';
/** SQS refuses a message with more message attributes than this: the trace then goes without. */
const MAX_MESSAGE_ATTRIBUTES = 10;

type Attributes = Record<string, { DataType: string; StringValue?: string }>;

function withTrace(attributes: Attributes | undefined, header: string): Attributes | undefined {
  if (Object.keys(attributes ?? {}).length >= MAX_MESSAGE_ATTRIBUTES) return attributes;
  return { ...attributes, [TRACE_HEADER_ATTRIBUTE]: { DataType: 'String', StringValue: header } };
}

/** `input` of an SQS SendMessage or SendMessageBatch with `header` added to each message's attributes. */
export function addTraceToMessages(operation: string, input: object, header: string | undefined): object {
  if (!header) return input;
  if (operation === 'SendMessage') {
    const message = input as { MessageAttributes?: Attributes };
    return { ...message, MessageAttributes: withTrace(message.MessageAttributes, header) };
  }
  if (operation === 'SendMessageBatch') {
    const batch = input as { Entries?: { MessageAttributes?: Attributes }[] };
    return { ...batch, Entries: batch.Entries?.map((entry) => ({ ...entry, MessageAttributes: withTrace(entry.MessageAttributes, header) })) };
  }
  return input;
}

/** The trace header a record was sent with: ours, else the one SQS kept (a sender that is not ours). */
export const recordTraceHeader = (record: SQSRecord): string | undefined =>
  record.messageAttributes?.[TRACE_HEADER_ATTRIBUTE]?.stringValue ?? record.attributes?.AWSTraceHeader;

/**
 * Runs `work` on one SQS record inside a `process` span that continues the sender's trace (its header), linked
 * to the invocation's span, so that an upload's trace goes on through the queue into the worker. A record sent
 * without a trace is processed under the invocation's span, as any other work.
 */
export async function withMessageTrace<T>(tracing: OtelTracing, queue: string, record: SQSRecord, work: () => Promise<T>): Promise<T> {
  const header = recordTraceHeader(record);
  if (!header) return work();
  const invocation = trace.getSpan(otelContext.active());
  const parent = contextOfTraceHeader(header, otelContext.active());
  // A sampled sender's trace goes on here even when Lambda did not sample this invocation.
  if (isSampled(parent)) await tracing.ready().catch(() => undefined);
  const attributes = { 'messaging.system': 'aws_sqs', 'messaging.operation.type': 'process', 'messaging.message.id': record.messageId };
  const span = tracing.startSpan(`${queue} process`, SpanKind.CONSUMER, attributes, parent);
  if (!span) return work();
  if (invocation) span.addLink({ context: invocation.spanContext() });
  return otelContext.with(trace.setSpan(parent, span), () => endingSpan(span, work));
}
