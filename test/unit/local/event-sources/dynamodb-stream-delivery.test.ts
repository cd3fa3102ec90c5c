import { describe, expect, it } from 'vitest';
import { toLambdaRecord } from '../../../../shared/local/event-sources/dynamodb-stream-delivery';

const ARN = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-11-26T00:00:00.000';

describe('stream records as Lambda delivers them', () => {
  it('keeps an empty map a map, where the SDK reads it as a value without a type', () => {
    const record = toLambdaRecord(
      { eventID: '1', eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'a' } }, NewImage: { pk: { S: 'a' }, metadata: {} as never }, SequenceNumber: '100' } },
      ARN,
    );

    expect(record.dynamodb?.NewImage?.['metadata']).toEqual({ M: {} });
  });

  it('keeps an empty map nested in a list a map', () => {
    const record = toLambdaRecord(
      { eventID: '1', eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'a' } }, NewImage: { pk: { S: 'a' }, parts: { L: [{} as never] } }, SequenceNumber: '100' } },
      ARN,
    );

    expect(record.dynamodb?.NewImage?.['parts']).toEqual({ L: [{ M: {} }] });
  });

  it('gives binary values as base64, as in Lambda\'s JSON event', () => {
    const record = toLambdaRecord(
      { eventID: '1', eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'a' } }, NewImage: { blob: { B: new Uint8Array([1, 2, 3]) } }, SequenceNumber: '100' } },
      ARN,
    );

    expect(record.dynamodb?.NewImage?.['blob']).toEqual({ B: 'AQID' });
  });
});
