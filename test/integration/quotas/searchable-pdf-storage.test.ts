import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DynamoDocumentRepository } from '../../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoOcrJobRepository } from '../../../shared/adapters/aws/dynamodb/ocr-job-repository';
import type { StorageLimits } from '../../../shared/adapters/aws/dynamodb/storage-ledger';
import { DynamoUsageRepository } from '../../../shared/adapters/aws/dynamodb/usage-repository';
import { ensureBucket } from '../../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../../shared/adapters/aws/s3/file-store';
import { PoolSearchablePdfWriter } from '../../../shared/adapters/pdf/pool-searchable-pdf-writer';
import { inWorkspace, type AppContainer } from '../../../shared/container/app-container';
import { AppError } from '../../../shared/domain/errors';
import { fileKeys } from '../../../shared/domain/files/file-keys';
import { storeSearchablePdf } from '../../../shared/domain/ocr/searchable-pdf';
import { freshTable, testClients, uniqueName } from '../../support/aws-resources';
import { aDocumentRecord } from '../../support/builders';
import { pngImage } from '../../support/fixtures';
import { testContainer } from '../../support/test-container';

const MONTH = new Date().toISOString().slice(0, 7);
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

/**
 * The OCR worker's side (the container's repositories on DynamoDB Local and the S3 emulator, the imaging pool's
 * writer): a PDF a tight plan has no room for is not kept, and the document says why.
 */
describe('a searchable PDF past the plan', () => {
  const writer = new PoolSearchablePdfWriter({ poolOptions: { size: 1 } });
  let w: ReturnType<typeof inWorkspace<AppContainer>>;
  const image = pngImage(400, 200);

  beforeAll(async () => {
    const { s3 } = testClients();
    const bucket = uniqueName('pdf-quota');
    await ensureBucket(s3, bucket);
    // A plan with room for the original and not much more.
    const plan = { documents_stored: 'unlimited', bytes_stored: image.byteLength + 10, ocr_pages_per_month: 'unlimited', sources: 'unlimited', members: 'unlimited', api_tokens: 'unlimited' };
    const { c } = await testContainer({ files: new S3FileStore(s3, bucket), env: { PLANS: JSON.stringify({ tight: plan }), DEFAULT_PLAN: 'tight' } });
    const workspaceId = crypto.randomUUID();
    await c.workspaces.create({ id: workspaceId, name: 'tight', created_at: new Date().toISOString() });
    w = inWorkspace(c, { workspaceId });
  });

  afterAll(() => writer.close());

  it('is not kept, and the document records why', async () => {
    const document = aDocumentRecord({ status: 'completed', mime_type: 'image/png', size: image.byteLength, sha256: crypto.randomUUID() });
    await w.files.put(fileKeys.original(document.id), image, 'image/png');
    await w.documents.create(document);
    const file = { size: image.byteLength, sha256: document.sha256, mimeType: 'image/png', readBytes: async () => new Uint8Array(image) };

    const state = await storeSearchablePdf({ ...w, searchablePdf: writer }, document.id, file, [[{ text: 'invoice', left: 0.1, top: 0.1, width: 0.3, height: 0.1 }]]);

    const stored = await w.documents.get(document.id);
    expect(state).toMatchObject({ reason: 'not_written' });
    expect({ size: stored?.searchable_pdf_size, reason: stored?.searchable_pdf_reason }).toEqual({ size: undefined, reason: 'not_written' });
    expect(stored?.searchable_pdf_message).toContain('storage quota');
    expect(await w.files.get(fileKeys.searchablePdf(document.id))).toBeNull();
  });
});
