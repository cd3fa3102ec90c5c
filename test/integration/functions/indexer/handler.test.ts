import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { StreamFailureRecord } from '../../../../shared/local/event-sources/dynamodb-stream-poller';
import { dataKeys } from '../../../../shared/adapters/aws/dynamodb/keys';
import { changeOf } from '../../../../shared/adapters/aws/dynamodb/stream-changes';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import type { Label } from '../../../../shared/domain/labels/label';
import { newOcrJob } from '../../../../shared/domain/ocr/jobs';
import { consumers } from '../../../support/change-consumers';
import { until } from '../../../support/until';
import { aDocumentRecord } from '../../../support/builders';

const aLabel = (name: string): Label => {
  const now = new Date().toISOString();
  return { id: crypto.randomUUID(), name, color: '#000000', description: null, document_count: 0, created_by: 't', created_at: now, updated_at: now };
};

const withJob = (document: DocumentRecord) => newOcrJob(document, 'normal', document.created_at);
const now = () => new Date().toISOString();
const claimOf = (documentId: string) => ({ documentId, run: 1, priority: 'normal' as const });
const completion = (text: string) => ({ text, confidence: 0.9, pages: 1, processingTime: 1, pagesByEngine: { tesseract: 1 }, content: { text }, readSha256: aDocumentRecord().sha256 });

describe('the indexer consumer on the table stream', () => {
  it('makes a created document searchable', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Quarterly invoice' });

    await c.documents.create(document, withJob(document));

    await until(async () => (await c.found('invoice')).includes(document.id), 20_000, 'the document is found');
  });

  it('follows an edit of the title', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Draft memo' });
    await c.documents.create(document);
    await until(async () => (await c.found('draft')).length === 1, 20_000, 'the draft is found');

    await c.documents.update(document.id, { title: 'Final memo' }, now());

    await until(async () => (await c.found('final')).includes(document.id), 20_000, 'the final title is found');
    expect(await c.found('draft')).toEqual([]);
  });

  it('follows the text an OCR run stored', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Scan' });
    await c.documents.create(document, withJob(document));
    await c.ocrJobs.claim(claimOf(document.id), now(), now());

    await c.ocrJobs.complete(document.id, 1, completion('handwritten receipt'), now());

    await until(async () => (await c.found('receipt')).includes(document.id), 20_000, 'the text is found');
  });

  it('removes a deleted document', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Obsolete contract' });
    await c.documents.create(document);
    await until(async () => (await c.found('obsolete')).length === 1, 20_000, 'the document is found');

    await c.documents.delete(document.id);

    await until(async () => (await c.found('obsolete')).length === 0, 20_000, 'the document is gone');
  });

  it('never brings back a document deleted while its OCR completes, even when the completion is applied again last', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Lease' });
    await c.documents.create(document, withJob(document));
    await c.ocrJobs.claim(claimOf(document.id), now(), now());
    await c.ocrJobs.complete(document.id, 1, completion('signed agreement'), now());
    await c.documents.delete(document.id);
    await until(() => c.applied('indexer', document.id, 'REMOVE'), 20_000, 'the removal is applied');

    // The completion's records (and everything else) arrive again after the removal, as a retry would bring them.
    const response = await c.indexer({ Records: [...c.delivered.indexer] });

    expect(response.batchItemFailures).toEqual([]);
    expect(await c.found('agreement')).toEqual([]);
    expect(await c.found('lease')).toEqual([]);
  });

  it('reaches every document carrying a renamed label', async () => {
    const c = await consumers();
    const label = aLabel('Receipts');
    await c.labels.create(label);
    const carriers = [aDocumentRecord({ labels: [label.id] }), aDocumentRecord({ labels: [label.id] }), aDocumentRecord({ labels: [label.id] })];
    for (const document of carriers) await c.documents.create(document);
    await until(async () => (await c.found('receipts', 'labels')).length === 3, 20_000, 'the carriers are found by the label');

    await c.labels.update(label.id, { name: 'Expenses' }, now());

    await until(async () => (await c.found('expenses', 'labels')).length === 3, 20_000, 'the carriers are found by the new name');
    expect(await c.found('receipts', 'labels')).toEqual([]);
  });

  it('reaches every carrier of a label renamed without moving their versions (a rename cut short)', async () => {
    const c = await consumers();
    const label = aLabel('Receipts');
    await c.labels.create(label);
    const carriers = [aDocumentRecord({ labels: [label.id] }), aDocumentRecord({ labels: [label.id] })];
    for (const document of carriers) await c.documents.create(document);
    await until(async () => (await c.found('receipts', 'labels')).length === 2, 20_000, 'the carriers are found by the label');

    // Only the label item changes: the repository's walk over its carriers never happened.
    await c.db.send(
      new UpdateCommand({
        TableName: c.tableName,
        Key: dataKeys(c.workspaceId).label(label.id),
        UpdateExpression: 'SET #name = :name',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': 'Expenses' },
      }),
    );

    await until(async () => (await c.found('expenses', 'labels')).length === 2, 20_000, 'the carriers are found by the new name');
  });

  it('sends a record the index keeps refusing to the failure destination, and applies the records written after it', async () => {
    const failures: { failure: StreamFailureRecord; records: DynamoDBRecord[] }[] = [];
    const c = await consumers({
      index: (index) => ({
        ...index,
        search: (request) => index.search(request),
        remove: (id, version) => index.remove(id, version),
        upsert: (document) => (document.title === 'Poison' ? Promise.reject(new Error('the index refuses this document')) : index.upsert(document)),
      }),
      poller: {
        maximumRetryAttempts: 1,
        onFailure: (failure, { records }) => {
          failures.push({ failure, records });
          return Promise.resolve();
        },
      },
    });
    const poison = aDocumentRecord({ title: 'Poison' });
    await c.documents.create(poison);
    await until(() => failures.length > 0, 20_000, 'the poison record reaches the failure destination');

    const later = aDocumentRecord({ title: 'Later arrival' });
    await c.documents.create(later);

    await until(async () => (await c.found('arrival')).includes(later.id), 20_000, 'the later document is found');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.failure.DDBStreamBatchInfo.batchSize).toBe(1);
    expect(changeOf(failures[0]!.records[0]!)).toMatchObject({ entity: 'document', documentId: poison.id });
  });
});

describe('both consumers, given the same batch twice', () => {
  it('have one effect: the index keeps the newest state and each event is pushed once', async () => {
    const c = await consumers();
    const document = aDocumentRecord({ title: 'Original heading' });
    await c.documents.create(document);
    await c.documents.update(document.id, { title: 'Revised heading' }, now());
    await until(async () => c.eventsOf('document_updated').length === 1 && (await c.found('revised')).length === 1, 20_000, 'both changes are applied and announced');
    const published = c.published.length;

    const again = await Promise.all([c.indexer({ Records: [...c.delivered.indexer] }), c.events({ Records: [...c.delivered.events] })]);

    expect(again.map((response) => response.batchItemFailures)).toEqual([[], []]);
    expect(c.published).toHaveLength(published);
    expect(await c.found('revised')).toEqual([document.id]);
    expect(await c.found('original')).toEqual([]);
  });
});
