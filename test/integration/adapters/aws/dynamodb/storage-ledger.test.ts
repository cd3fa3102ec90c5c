import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoDocumentRepository } from '../../../../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoUsageRepository } from '../../../../../shared/adapters/aws/dynamodb/usage-repository';
import type { StorageLimits } from '../../../../../shared/adapters/aws/dynamodb/storage-ledger';
import { AppError } from '../../../../../shared/domain/errors';
import { freshTable } from '../../../../support/aws-resources';
import { aDocumentRecord } from '../../../../support/builders';
import { DynamoOcrJobRepository } from '../../../../../shared/adapters/aws/dynamodb/ocr-job-repository';

const WORKSPACE = '33333333-3333-4333-8333-333333333333';
const MONTH = new Date().toISOString().slice(0, 7);

/** The storage quota's ledger through the document repository: exact at the plan's edge, also under concurrency. */
describe('storage quota (DynamoDocumentRepository with its ledger)', () => {
  let db: Awaited<ReturnType<typeof freshTable>>['db'];
  let tableName: string;
  let limits: StorageLimits;
  let documents: DynamoDocumentRepository;
  let usage: DynamoUsageRepository;

  beforeEach(async () => {
    ({ db, tableName } = await freshTable());
    limits = { documents: 'unlimited', bytes: 'unlimited' };
    documents = new DynamoDocumentRepository(db, tableName, WORKSPACE, undefined, async () => limits);
    usage = new DynamoUsageRepository(db, tableName);
  });

  const create = (size: number) => documents.create(aDocumentRecord({ id: crypto.randomUUID(), size }));
  const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof AppError ? error : Promise.reject(error)));
  const stored = async () => {
    const month = await usage.month(WORKSPACE, MONTH);
    return { documents: month.documents_stored, bytes: month.bytes_stored };
  };

  it('never ends above the bytes limit when 20 uploads race for the last room', async () => {
    limits = { documents: 'unlimited', bytes: 1000 };
    await Promise.all(Array.from({ length: 5 }, () => create(100)));

    const outcomes = await Promise.all(Array.from({ length: 20 }, () => refusal(create(100))));

    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(5);
    expect(await stored()).toEqual({ documents: 10, bytes: 1000 });
    const refused = outcomes.find((outcome) => outcome !== null)!;
    expect(refused.status).toBe(403);
    expect(refused.details).toMatchObject({ reason: 'quota_exceeded', quota: 'bytes_stored', limit: 1000, used: 1000 });
  });

  it('never ends above the documents limit when 20 uploads race for it', async () => {
    limits = { documents: 7, bytes: 'unlimited' };

    const outcomes = await Promise.all(Array.from({ length: 20 }, () => refusal(create(1))));

    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(7);
    expect((await stored()).documents).toBe(7);
    expect((await documents.list({ page: 1, perPage: 1, sort: 'created_at', order: 'desc' })).pagination.total).toBe(7);
  });

  it('counts what was stored before the limit applied, and frees room on delete', async () => {
    const first = aDocumentRecord({ id: crypto.randomUUID(), size: 600 });
    await documents.create(first);
    await create(300);
    limits = { documents: 'unlimited', bytes: 1000 };

    const over = await refusal(create(200));
    await documents.delete(first.id);
    const fits = await refusal(create(700));

    expect(over?.details).toMatchObject({ quota: 'bytes_stored', limit: 1000, used: 900 });
    expect(fits).toBeNull();
    expect(await stored()).toEqual({ documents: 2, bytes: 1000 });
  });

  it('holds a lowered limit at once: the room granted under the old one is taken back', async () => {
    limits = { documents: 'unlimited', bytes: 10_000 };
    await create(100);
    limits = { documents: 'unlimited', bytes: 150 };

    const over = await refusal(create(100));
    const fits = await refusal(create(50));

    expect(over?.details).toMatchObject({ quota: 'bytes_stored', limit: 150, used: 100 });
    expect(fits).toBeNull();
  });
});

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof AppError ? error : Promise.reject(error)));

/**
 * A document's searchable PDF in the workspace's storage ledger (DynamoDB Local): its bytes count against the
 * plan's `bytes_stored` like the original's, so the quota and the usage agree, and leave with the document or
 * the file they were made of.
 */
describe('searchable PDF bytes in the storage ledger', () => {
  const workspaceId = crypto.randomUUID();
  let limits: StorageLimits;
  let documents: DynamoDocumentRepository;
  let ocrJobs: DynamoOcrJobRepository;
  let usage: DynamoUsageRepository;

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    limits = { documents: 'unlimited', bytes: 'unlimited' };
    documents = new DynamoDocumentRepository(db, tableName, workspaceId, undefined, async () => limits);
    ocrJobs = new DynamoOcrJobRepository(db, tableName, workspaceId, async () => limits);
    usage = new DynamoUsageRepository(db, tableName);
  });

  const create = async (size: number) => {
    const document = aDocumentRecord({ id: crypto.randomUUID(), size, sha256: crypto.randomUUID() });
    await documents.create(document);
    return document;
  };
  const recordPdf = (document: { id: string; sha256: string }, size: number) => ocrJobs.recordSearchablePdf(document.id, document.sha256, { size }, new Date().toISOString());
  const bytesStored = async () => (await usage.month(workspaceId, MONTH)).bytes_stored;

  it('counts the PDF against the plan: the next upload meets its bytes at the edge', async () => {
    limits = { documents: 'unlimited', bytes: 200 };
    const document = await create(100);
    await recordPdf(document, 50);

    const over = await refusal(create(60));
    const fits = await refusal(create(50));

    expect(over?.details).toMatchObject({ reason: 'quota_exceeded', quota: 'bytes_stored', limit: 200, used: 150 });
    expect(fits).toBeNull();
    expect(await bytesStored()).toBe(200);
  });

  it('refuses a PDF the plan has no room for, recording nothing of it', async () => {
    limits = { documents: 'unlimited', bytes: 120 };
    const document = await create(100);

    const refused = await refusal(recordPdf(document, 50));

    expect(refused?.details).toMatchObject({ reason: 'quota_exceeded', quota: 'bytes_stored', limit: 120, used: 100 });
    expect((await documents.get(document.id))?.searchable_pdf_size).toBeUndefined();
    expect(await bytesStored()).toBe(100);
  });

  it("releases the PDF's bytes with its document", async () => {
    limits = { documents: 'unlimited', bytes: 200 };
    const document = await create(100);
    await recordPdf(document, 50);

    await documents.delete(document.id);
    const fits = await refusal(create(200));

    expect(fits).toBeNull();
    expect(await bytesStored()).toBe(200);
  });

  it("releases the old file's PDF when a sync replaces the file", async () => {
    limits = { documents: 'unlimited', bytes: 200 };
    const document = await create(100);
    await recordPdf(document, 50);

    await documents.replaceFile(document.id, { size: 100, sha256: crypto.randomUUID(), mime_type: 'application/pdf' }, new Date().toISOString());
    const fits = await refusal(create(100));

    expect(fits).toBeNull();
    expect(await bytesStored()).toBe(200);
  });

  it('moves only the difference when a retried run replaces the PDF', async () => {
    limits = { documents: 'unlimited', bytes: 200 };
    const document = await create(100);
    await recordPdf(document, 50);

    await recordPdf(document, 80);
    const over = await refusal(create(21));
    const fits = await refusal(create(20));

    expect(over?.details).toMatchObject({ quota: 'bytes_stored', used: 180 });
    expect(fits).toBeNull();
  });
});
