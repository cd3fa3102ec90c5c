import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { addTraceToMessages, recordTraceHeader, TRACE_HEADER_ATTRIBUTE } from '../../../../shared/adapters/otel/message-tracing';

const HEADER = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
const traceAttribute = { DataType: 'String', StringValue: HEADER };
const requestId = { DataType: 'String', StringValue: 'req-1' };

describe('the trace of an SQS message', () => {
  it("adds the sending span's header to a message beside its own attributes", () => {
    // Arrange
    const input = { QueueUrl: 'q', MessageBody: '{}', MessageAttributes: { request_id: requestId } };

    // Act
    const sent = addTraceToMessages('SendMessage', input, HEADER);

    // Assert
    expect(sent).toEqual({ ...input, MessageAttributes: { request_id: requestId, [TRACE_HEADER_ATTRIBUTE]: traceAttribute } });
    expect(input.MessageAttributes).toEqual({ request_id: requestId });
  });

  it('adds the header to every message of a batch', () => {
    // Arrange
    const input = { QueueUrl: 'q', Entries: [{ Id: '1', MessageBody: '{}' }, { Id: '2', MessageBody: '{}', MessageAttributes: { request_id: requestId } }] };

    // Act
    const sent = addTraceToMessages('SendMessageBatch', input, HEADER) as typeof input;

    // Assert
    expect(sent.Entries.map((entry) => entry.MessageAttributes)).toEqual([
      { [TRACE_HEADER_ATTRIBUTE]: traceAttribute },
      { request_id: requestId, [TRACE_HEADER_ATTRIBUTE]: traceAttribute },
    ]);
  });

  it('leaves a message that already has the ten attributes SQS allows as it is', () => {
    // Arrange
    const full = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`a${index}`, requestId]));
    const input = { QueueUrl: 'q', MessageBody: '{}', MessageAttributes: full };

    // Act
    const sent = addTraceToMessages('SendMessage', input, HEADER);

    // Assert
    expect(sent).toEqual(input);
  });

  it('leaves other operations, and sends without a trace, as they are', () => {
    // Arrange
    const input = { QueueUrl: 'q', MessageBody: '{}' };

    // Act
    const results = [addTraceToMessages('ReceiveMessage', input, HEADER), addTraceToMessages('SendMessage', input, undefined)];

    // Assert
    expect(results).toEqual([input, input]);
  });

  it("reads a record's trace from its message attribute first, then from SQS's AWSTraceHeader", () => {
    // Arrange
    const record = (messageAttributes: object, attributes: object) => ({ messageAttributes, attributes }) as unknown as SQSRecord;
    const other = 'Root=1-5759e988-000000000000000000000000;Parent=1111111111111111;Sampled=1';

    // Act
    const headers = [
      recordTraceHeader(record({ [TRACE_HEADER_ATTRIBUTE]: { stringValue: HEADER, dataType: 'String' } }, { AWSTraceHeader: other })),
      recordTraceHeader(record({}, { AWSTraceHeader: other })),
      recordTraceHeader(record({}, {})),
    ];

    // Assert
    expect(headers).toEqual([HEADER, other, undefined]);
  });
});
