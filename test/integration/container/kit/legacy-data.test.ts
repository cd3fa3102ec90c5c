import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { S3LegacyObjectAdopter } from '../../../../shared/adapters/aws/s3/legacy-object-adoption';
import { dynamoLegacyItems } from '../../../../shared/container/kit/legacy-data';
import { ensureBucket } from '../../../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../../../shared/adapters/aws/s3/file-store';
import { workspaceFileStore } from '../../../../shared/domain/documents/bucket-layout';
import { dataKeys } from '../../../../shared/adapters/aws/dynamodb/keys';
import { labelShardOf } from '../../../../shared/adapters/aws/dynamodb/label-membership';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { ensureAdmin } from '../../../../shared/domain/users/ensure-admin';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../shared/domain/workspaces/workspace';
import { testClients, uniqueName } from '../../../support/aws-resources';
import { testKit, type TestKit } from '../../../support/test-kit';

/**
 * Items and objects exactly as the version before workspaces wrote them (keys without a workspace), so that the
 * adoption is tested against what an existing DATA_DIR holds, not against today's writers.
 */
function legacyItems(documentId: string, labelId: string, uploadId: string) {
  const at = '2026-11-01T10:00:00.000Z';
  return [
    {
      pk: `DOC#${documentId}`,
      sk: 'META',
      gsi1pk: 'DOCS',
      gsi1sk: `${at}#${documentId}`,
      id: documentId,
      title: 'Invoice 4711',
      filename: 'invoice.pdf',
      mime_type: 'application/pdf',
      size: 9,
      sha256: 'x'.repeat(64),
      status: 'completed',
      labels: new Set([labelId]),
      metadata: {},
      ocr_enabled: true,
      language: 'eng',
      ocr_confidence: 97,
      page_count: 1,
      source_id: null,
      created_by: 'someone',
      created_at: at,
      updated_at: at,
      version: 3,
    },
    { pk: `DOC#${documentId}`, sk: 'CONTENT', text: 'Total due 42 EUR' },
    {
      pk: `DOC#${documentId}`,
      sk: 'OCRJOB',
      gsi1pk: 'OCRJOBS#completed',
      gsi1sk: `1#${at}#${documentId}`,
      id: documentId,
      document_id: documentId,
      status: 'completed',
      priority: 'normal',
      language: 'eng',
      run: 1,
      attempts: 1,
      progress: 100,
      pages: 1,
      cancel_requested: false,
      failure_reason: null,
      created_by: 'someone',
      queued_at: at,
      started_at: at,
      heartbeat_at: at,
      finished_at: at,
      processing_time: 2,
      rev: 4,
    },
    { pk: 'COUNTERS', sk: 'DOCUMENTS', count: 1 },
    { pk: 'COUNTERS', sk: 'OCRTOTALS', completed: 1, failed: 0, processing_seconds: 2, confidence_sum: 97 },
    { pk: 'OCRSTATS', sk: '2026-11-01', completed: 1, failed: 0, processing_seconds: 2, confidence_sum: 97 },
    {
      pk: `LABEL#${labelId}`,
      sk: 'META',
      gsi1pk: 'LABELS',
      gsi1sk: `invoices#${labelId}`,
      id: labelId,
      name: 'Invoices',
      color: '#ff0000',
      description: null,
      created_by: 'someone',
      created_at: at,
      updated_at: at,
      document_count: 1,
    },
    { pk: 'LABELNAME#invoices', sk: 'LOCK', label_id: labelId },
    { pk: `LABEL#${labelId}`, sk: `DOC#${documentId}`, document_id: documentId },
    {
      pk: `UPLOAD#${uploadId}`,
      sk: 'PENDING',
      id: uploadId,
      filename: 'big.pdf',
      title: null,
      size: 10,
      labels: [],
      ocr_enabled: true,
      language: 'eng',
      created_by: 'someone',
      created_at: at,
      expires_at: '2999-01-01T00:00:00.000Z',
      state: 'awaiting_file',
      reason: null,
    },
  ];
}

/** What creates the operator's account, with the adoption of the table's items and the bucket's objects, and the stores that read them. */
async function adoptingKit(bucket: string) {
  const kit = await testKit();
  const { s3 } = testClients();
  const files = new S3FileStore(s3, bucket);
  return {
    ...kit,
    ...kit.gate,
    legacyData: [...dynamoLegacyItems(kit.db, kit.tableName), new S3LegacyObjectAdopter(s3, bucket)],
    forWorkspace: (workspaceId: string) => ({ ...kit.stores('documents', 'ocrJobs', 'labels', 'uploads')(workspaceId), files: workspaceFileStore(files, workspaceId) }),
  };
}

describe('adoption of data written before workspaces', () => {
  let c: Awaited<ReturnType<typeof adoptingKit>>;
  let db: TestKit['db'];
  let tableName: string;
  let bucket: string;
  const { s3 } = testClients();
  const documentId = crypto.randomUUID();
  const labelId = crypto.randomUUID();
  const uploadId = crypto.randomUUID();
  const admin = { username: 'operator', email: 'operator@example.com', password: 'a-long-password' };

  beforeEach(async () => {
    bucket = uniqueName('legacy');
    await ensureBucket(s3, bucket);
    c = await adoptingKit(bucket);
    ({ db, tableName } = c);
    await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: legacyItems(documentId, labelId, uploadId).map((Item) => ({ PutRequest: { Item } })) } }));
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `documents/${documentId}/original`, Body: '%PDF-1.4 ', ContentType: 'application/pdf' }));
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `uploads/${uploadId}`, Body: '%PDF-1.4 x' }));
  });

  it('finds every document, its text, OCR job and counters in the first workspace after the start', async () => {
    await ensureAdmin(c, admin);

    const first = c.forWorkspace(BOOTSTRAP_WORKSPACE_ID);
    expect(await first.documents.get(documentId)).toMatchObject({ title: 'Invoice 4711', labels: [labelId], version: 3 });
    expect(await first.documents.getContent(documentId)).toEqual({ text: 'Total due 42 EUR' });
    expect((await first.documents.list({ page: 1, perPage: 10, sort: 'created_at', order: 'desc' })).pagination.total).toBe(1);
    expect(await first.ocrJobs.get(documentId)).toMatchObject({ status: 'completed', pages: 1 });
    expect((await first.ocrJobs.totals()).completed).toBe(1);
    expect(await first.ocrJobs.daily('2026-11-01', '2026-11-30')).toHaveLength(1);
  });

  it('keeps labels, their names and their counts in the first workspace', async () => {
    await ensureAdmin(c, admin);

    const first = c.forWorkspace(BOOTSTRAP_WORKSPACE_ID);
    expect(await first.labels.list()).toEqual([expect.objectContaining({ id: labelId, name: 'Invoices', document_count: 1 })]);
    await expect(first.labels.create({
        id: crypto.randomUUID(),
        name: 'INVOICES',
        color: '#00ff00',
        description: null,
        document_count: 0,
        created_by: 'someone',
        created_at: '2026-11-02T00:00:00.000Z',
        updated_at: '2026-11-02T00:00:00.000Z',
      }),
    ).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE' });
    expect(await first.uploads.get(uploadId)).toMatchObject({ state: 'awaiting_file' });
  });

  it("moves the adopted labels to their shards, so that no popular label's record takes every upload", async () => {
    await ensureAdmin(c, admin);

    const keys = dataKeys(BOOTSTRAP_WORKSPACE_ID);
    const read = async (Key: { pk: string; sk: string }) => (await db.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }))).Item;
    const record = await read(keys.label(labelId));
    const inShard = await read(keys.labelShardMember(labelId, labelShardOf(documentId), documentId));
    const inRecordPartition = await read(keys.labelMember(labelId, documentId));
    expect({ shards: record?.['label_shards'], moving: record?.['label_migration'], inShard: inShard?.['document_id'], inRecordPartition }).toEqual({
      shards: 16,
      moving: undefined,
      inShard: documentId,
      inRecordPartition: undefined,
    });
  });

  it('moves the files under the first workspace, where its file store reads them', async () => {
    await ensureAdmin(c, admin);

    const first = c.forWorkspace(BOOTSTRAP_WORKSPACE_ID);
    expect(new TextDecoder().decode((await first.files.get(fileKeys.original(documentId)))!)).toBe('%PDF-1.4 ');
    expect(await first.files.get(fileKeys.staged(uploadId))).not.toBeNull();
    await expect(s3.send(new GetObjectCommand({ Bucket: bucket, Key: `documents/${documentId}/original` }))).rejects.toThrow();
  });

  it('counts the adopted documents in the first workspace’s usage, as uploads of the month each was created', async () => {
    await ensureAdmin(c, admin);

    const november = await c.usage.month(BOOTSTRAP_WORKSPACE_ID, '2026-11');

    expect(november).toMatchObject({ documents_uploaded: 1, bytes_uploaded: 9, documents_stored: 1, bytes_stored: 9 });
  });

  it('shows none of the adopted data to another workspace', async () => {
    await ensureAdmin(c, admin);

    const other = c.forWorkspace(crypto.randomUUID());
    expect(await other.documents.get(documentId)).toBeNull();
    expect(await other.labels.list()).toEqual([]);
    expect((await other.documents.list({ page: 1, perPage: 10, sort: 'created_at', order: 'desc' })).pagination.total).toBe(0);
  });

  it('scans the table once: items of the old shape written after the adoption stay where they are', async () => {
    await ensureAdmin(c, admin);
    await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: [{ PutRequest: { Item: { pk: 'DOC#late', sk: 'META', id: 'late' } } }] } }));

    await ensureAdmin(c, admin);

    expect((await db.send(new GetCommand({ TableName: tableName, Key: { pk: 'DOC#late', sk: 'META' } }))).Item).toMatchObject({ id: 'late' });
  });

  it('changes nothing on a second start', async () => {
    await ensureAdmin(c, admin);

    await ensureAdmin(c, admin);

    const first = c.forWorkspace(BOOTSTRAP_WORKSPACE_ID);
    expect(await first.documents.get(documentId)).toMatchObject({ version: 3 });
    expect(await first.labels.list()).toHaveLength(1);
  });
});
