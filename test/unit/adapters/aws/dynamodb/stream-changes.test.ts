import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { changeOf, streamChangesHandler } from '../../../../../shared/adapters/aws/dynamodb/stream-changes';
import type { ItemChange } from '../../../../../shared/domain/changes/ports';

type Item = Record<string, unknown> & { pk: string; sk: string };

const image = (item: Item) => marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>;

/** A record as Lambda's event source gives it, for an item written from `old` to `next`. */
function record(old: Item | null, next: Item | null, sequence = '100'): DynamoDBRecord {
  const item = (next ?? old)!;
  return {
    eventID: `event-${sequence}`,
    eventName: old && next ? 'MODIFY' : next ? 'INSERT' : 'REMOVE',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      ApproximateCreationDateTime: 1_764_151_200,
      Keys: image({ pk: item.pk, sk: item.sk }),
      ...(next ? { NewImage: image(next) } : {}),
      ...(old ? { OldImage: image(old) } : {}),
      SequenceNumber: sequence,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

const documentItem: Item = {
  pk: 'WS#ws-1#DOC#doc-1',
  sk: 'META',
  gsi1pk: 'WS#ws-1#DOCS',
  gsi1sk: '2026-11-26T10:00:00.000Z#doc-1',
  id: 'doc-1',
  title: 'Invoice',
  labels: new Set(['b', 'a']),
  version: 3,
};

describe('stream records as table changes', () => {
  it('reads a document item as the repository gives it: no keys, labels a sorted list, its version', () => {
    const change = changeOf(record(null, documentItem));

    expect(change).toEqual({
      id: 'event-100',
      sequence: '100',
      at: '2025-11-26T10:00:00.000Z',
      entity: 'document',
      workspaceId: 'ws-1',
      documentId: 'doc-1',
      old: null,
      new: { id: 'doc-1', title: 'Invoice', labels: ['a', 'b'], version: 3 },
    });
  });

  it('gives a removed item its old image and no new one', () => {
    const change = changeOf(record(documentItem, null));

    expect(change).toMatchObject({ entity: 'document', old: { id: 'doc-1' }, new: null });
  });

  it('reads a document without labels with an empty list', () => {
    const { labels: _labels, ...unlabelled } = documentItem;

    expect(changeOf(record(null, unlabelled))).toMatchObject({ new: { labels: [] } });
  });

  it('reads an OCR job without its revision', () => {
    const job = { pk: 'WS#ws-1#DOC#doc-1', sk: 'OCRJOB', gsi1pk: 'WS#ws-1#OCRJOBS#queued', gsi1sk: '1#t#doc-1', document_id: 'doc-1', status: 'queued', rev: 4 };

    expect(changeOf(record(null, job))).toMatchObject({ entity: 'ocr_job', workspaceId: 'ws-1', documentId: 'doc-1', new: { document_id: 'doc-1', status: 'queued' } });
    expect(changeOf(record(null, job))?.new).not.toHaveProperty('rev');
  });

  it('reads the text of a document as a change of its content', () => {
    expect(changeOf(record(null, { pk: 'WS#ws-1#DOC#doc-1', sk: 'CONTENT', text: 'words' }))).toMatchObject({
      entity: 'document_content',
      documentId: 'doc-1',
      new: { text: 'words' },
    });
  });

  it('reads the queue counters with a zero for a counter not written yet', () => {
    const change = changeOf(record(null, { pk: 'WS#ws-1#COUNTERS', sk: 'OCRQUEUE', pending: 1 }));

    expect(change).toMatchObject({ entity: 'ocr_queue_counters', workspaceId: 'ws-1', new: { pending: 1, processing: 0, failed: 0 } });
  });

  it('reads a label and a notification with their ids', () => {
    const label = changeOf(record(null, { pk: 'WS#ws-1#LABEL#l-1', sk: 'META', id: 'l-1', name: 'Tax' }));
    const notification = changeOf(record(null, { pk: 'USER#u-1', sk: 'NOTIFICATION#n-1', id: 'n-1', type: 'ocr_completed', workspace_id: 'ws-1' }));

    expect(label).toMatchObject({ entity: 'label', workspaceId: 'ws-1', labelId: 'l-1', new: { id: 'l-1', name: 'Tax' } });
    expect(notification).toMatchObject({ entity: 'notification', userId: 'u-1', notificationId: 'n-1', workspaceId: 'ws-1', new: { id: 'n-1' } });
    expect(notification?.new).not.toHaveProperty('workspace_id');
  });

  it('reads a notification item written before items recorded their workspace with no workspace', () => {
    const notification = changeOf(record(null, { pk: 'USER#u-1', sk: 'NOTIFICATION#n-1', id: 'n-1', type: 'ocr_completed' }));

    expect(notification).toMatchObject({ entity: 'notification', userId: 'u-1', workspaceId: null });
  });

  it('reads a sync job with its source and job ids, without its lease, its counters numbers', () => {
    const job = { pk: 'WS#ws-1#SOURCE#s-1#JOBS', sk: 'job-1', gsi1pk: 'ACTIVESYNCS', gsi1sk: 'x', job_id: 'job-1', source_id: 's-1', state: 'running', new: 2, total: 5, lease_until: '2026-11-26T10:05:00.000Z' };

    const change = changeOf(record(null, job));

    expect(change).toMatchObject({ entity: 'sync_job', workspaceId: 'ws-1', sourceId: 's-1', jobId: 'job-1', new: { state: 'running', new: 2, changed: 0, total: 5, current_file: null } });
    expect(change?.new).not.toHaveProperty('lease_until');
  });

  it('reads a connection record as the connection repository gives it, with the reason its session ended', () => {
    const open = { pk: 'CONN#abc=', sk: 'META', connection_id: 'abc=', connected_at: '2026-11-26T10:00:00.000Z', user_id: 'u-1', workspace_id: 'ws-1', ttl: 1 };

    const change = changeOf(record(open, { ...open, ended: 'password_changed' }));

    expect(change).toMatchObject({ entity: 'connection', connectionId: 'abc=', old: { id: 'abc=', userId: 'u-1' }, new: { id: 'abc=', ended: 'password_changed' } });
    expect(change?.old).not.toHaveProperty('ended');
  });

  it.each([
    ['a sync\'s work list', { pk: 'WS#ws-1#SYNCWORK#job-1', sk: 'F#a.pdf' }],
    ['a source', { pk: 'WS#ws-1#SOURCES', sk: 'SOURCE#s-1' }],
    ['what a sync remembers of a directory', { pk: 'WS#ws-1#SOURCE#s-1#DIR#docs', sk: '.' }],
    ['a user\'s connection count', { pk: 'USER#u-1', sk: 'CONNECTIONS' }],
    ['a label membership', { pk: 'WS#ws-1#LABEL#l-1', sk: 'DOC#doc-1' }],
    ['the document counter', { pk: 'WS#ws-1#COUNTERS', sk: 'DOCUMENTS' }],
    ['a user profile', { pk: 'USER#u-1', sk: 'PROFILE' }],
    ['a usage month', { pk: 'WS#ws-1#USAGE', sk: '2026-11' }],
    ['a ledger entry', { pk: 'STREAMSEEN#event-1', sk: 'events' }],
  ])('ignores %s, which no consumer follows', (_name, item) => {
    expect(changeOf(record(null, item))).toBeNull();
  });
});

describe('a stream consumer with partial batch failures', () => {
  const note = (n: number): Item => ({ pk: 'USER#u-1', sk: `NOTIFICATION#n-${n}`, id: `n-${n}` });

  it('reports no failure when every change was applied', async () => {
    const handler = streamChangesHandler('test', () => Promise.resolve({}));

    expect(await handler({ Records: [record(null, note(1), '1')] })).toEqual({ batchItemFailures: [] });
  });

  it('reports the sequence number of the first change the consumer could not apply', async () => {
    const handler = streamChangesHandler('test', () => Promise.resolve({ failedAt: '2' }));

    expect(await handler({ Records: [record(null, note(1), '1'), record(null, note(2), '2'), record(null, note(3), '3')] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '2' }],
    });
  });

  it('reports an unreadable record as failed and consumes only the changes before it', async () => {
    const consumed: ItemChange[][] = [];
    const handler = streamChangesHandler('test', (changes) => {
      consumed.push(changes);
      return Promise.resolve({});
    });
    const broken = record(null, note(2), '2');
    broken.dynamodb!.NewImage = { id: { Z: 'no such type' } as unknown as AttributeValue };

    const response = await handler({ Records: [record(null, note(1), '1'), broken, record(null, note(3), '3')] });

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
    expect(consumed.map((changes) => changes.map((change) => change.sequence))).toEqual([['1']]);
  });
});
