import { describe, expect, it } from 'vitest';
import { DynamoDocumentRepository } from '../../../../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoOcrJobRepository } from '../../../../../shared/adapters/aws/dynamodb/ocr-job-repository';
import { DynamoUsageRepository } from '../../../../../shared/adapters/aws/dynamodb/usage-repository';
import { WriteBehindUsageMeter } from '../../../../../shared/adapters/local/write-behind-usage-meter';
import { newOcrJob } from '../../../../../shared/domain/ocr/jobs';
import { freshTable } from '../../../../support/aws-resources';
import { aDocumentRecord, ManualClock } from '../../../../support/builders';

const FIRST = '11111111-1111-4111-8111-111111111111';
const SECOND = '22222222-2222-4222-8222-222222222222';
const JANUARY_END = '2026-01-31T23:59:59.000Z';

/** Usage counters moved by the document and OCR job repositories of two workspaces sharing one table. */
describe('usage counters', () => {
  const setup = async (at = '2026-01-15T12:00:00.000Z') => {
    const { db, tableName } = await freshTable();
    const clock = new ManualClock(new Date(at));
    const workspace = (id: string) => ({
      documents: new DynamoDocumentRepository(db, tableName, id, clock),
      ocrJobs: new DynamoOcrJobRepository(db, tableName, id),
    });
    return { clock, usage: new DynamoUsageRepository(db, tableName), first: workspace(FIRST), second: workspace(SECOND) };
  };

  it('counts each stored document and its bytes in its own workspace only', async () => {
    // Arrange
    const { usage, first, second } = await setup();

    // Act
    await first.documents.create(aDocumentRecord({ size: 100 }));
    await first.documents.create(aDocumentRecord({ size: 50 }));
    await second.documents.create(aDocumentRecord({ size: 7 }));

    // Assert
    expect(await usage.month(FIRST, '2026-01')).toMatchObject({ documents_uploaded: 2, bytes_uploaded: 150, documents_stored: 2, bytes_stored: 150 });
    expect(await usage.month(SECOND, '2026-01')).toMatchObject({ documents_uploaded: 1, bytes_uploaded: 7, documents_stored: 1, bytes_stored: 7 });
  });

  it('moves nothing when the create fails', async () => {
    // Arrange
    const { usage, first } = await setup();
    const withUnknownLabel = aDocumentRecord({ size: 100, labels: [crypto.randomUUID()] });

    // Act
    await expect(first.documents.create(withUnknownLabel)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });

    // Assert
    expect(await usage.month(FIRST, '2026-01')).toMatchObject({ documents_uploaded: 0, bytes_uploaded: 0, documents_stored: 0 });
  });

  it('counts a delete as deleted documents and bytes, and takes it off what is stored', async () => {
    // Arrange
    const { usage, first } = await setup();
    const kept = aDocumentRecord({ size: 100 });
    const deleted = aDocumentRecord({ size: 30 });
    await first.documents.create(kept);
    await first.documents.create(deleted);

    // Act
    await first.documents.delete(deleted.id);
    await first.documents.delete(deleted.id);

    // Assert
    expect(await usage.month(FIRST, '2026-01')).toMatchObject({
      documents_uploaded: 2,
      documents_deleted: 1,
      bytes_uploaded: 130,
      bytes_deleted: 30,
      documents_stored: 1,
      bytes_stored: 100,
    });
  });

  it('counts each change in the calendar month (UTC) it was made in, and what was stored at each month end', async () => {
    // Arrange
    const { clock, usage, first } = await setup(JANUARY_END);
    const january = aDocumentRecord({ size: 100 });
    await first.documents.create(january);
    clock.advanceSeconds(2);

    // Act
    await first.documents.create(aDocumentRecord({ size: 10 }));
    await first.documents.delete(january.id);

    // Assert
    expect(await usage.month(FIRST, '2026-01')).toMatchObject({ documents_uploaded: 1, documents_deleted: 0, documents_stored: 1, bytes_stored: 100 });
    expect(await usage.month(FIRST, '2026-02')).toMatchObject({ documents_uploaded: 1, documents_deleted: 1, documents_stored: 1, bytes_stored: 10 });
    expect(await usage.month(FIRST, '2026-03')).toMatchObject({ documents_uploaded: 0, documents_stored: 1, bytes_stored: 10 });
    expect(await usage.month(FIRST, '2025-12')).toMatchObject({ documents_uploaded: 0, documents_stored: 0 });
  });

  it('adds the pages of a completed OCR run under its engine, once, in the month it completed', async () => {
    // Arrange
    const { usage, first } = await setup();
    const document = aDocumentRecord({ created_at: '2026-01-31T23:00:00.000Z' });
    await first.documents.create(document, newOcrJob(document, 'normal', document.created_at));
    await first.ocrJobs.claim({ documentId: document.id, run: 1, priority: 'normal' }, '2026-01-31T23:00:01.000Z', '2026-01-31T22:00:00.000Z');
    const result = { text: 'hello', confidence: 0.9, pages: 3, processingTime: 2, pagesByEngine: { tesseract: 3 }, content: { text: 'hello' }, readSha256: aDocumentRecord().sha256 };

    // Act
    const completed = await first.ocrJobs.complete(document.id, 1, result, '2026-02-01T00:00:01.000Z');
    const again = await first.ocrJobs.complete(document.id, 1, result, '2026-02-01T00:00:02.000Z');

    // Assert
    expect([completed, again]).toEqual(['completed', 'not_held']);
    expect(await usage.month(FIRST, '2026-02')).toMatchObject({ pages_ocred: 3, pages_ocred_by_engine: { tesseract: 3 } });
    expect(await usage.month(FIRST, '2026-01')).toMatchObject({ pages_ocred: 0, pages_ocred_by_engine: {} });
    expect(await usage.month(SECOND, '2026-02')).toMatchObject({ pages_ocred: 0 });
  });

  it('keeps the pages of each engine apart and sums them', async () => {
    // Arrange
    const { usage, first } = await setup();
    const complete = async (pages: number, engine: string) => {
      const document = aDocumentRecord();
      await first.documents.create(document, newOcrJob(document, 'normal', document.created_at));
      await first.ocrJobs.claim({ documentId: document.id, run: 1, priority: 'normal' }, '2026-01-15T12:00:01.000Z', '2026-01-15T11:00:00.000Z');
      await first.ocrJobs.complete(document.id, 1, { text: '', confidence: 1, pages, processingTime: 1, pagesByEngine: { [engine]: pages }, content: { text: '' }, readSha256: aDocumentRecord().sha256 }, '2026-01-15T12:00:02.000Z');
    };

    // Act
    await complete(2, 'tesseract');
    await complete(5, 'text_layer');
    await complete(1, 'tesseract');

    // Assert
    expect(await usage.month(FIRST, '2026-01')).toMatchObject({ pages_ocred: 8, pages_ocred_by_engine: { tesseract: 3, text_layer: 5 } });
  });

  it('adds request counts of a workspace and month, from concurrent callers, without losing any', async () => {
    // Arrange
    const { usage } = await setup();

    // Act
    await Promise.all(Array.from({ length: 20 }, (_, i) => usage.add(i % 4 ? FIRST : SECOND, '2026-01', { api_requests: 1, ...(i % 2 ? {} : { search_requests: 1 }) })));

    // Assert
    expect(await usage.month(FIRST, '2026-01')).toMatchObject({ api_requests: 15, search_requests: 5 });
    expect(await usage.month(SECOND, '2026-01')).toMatchObject({ api_requests: 5, search_requests: 5 });
  });

  it('writes every request count taken behind the requests once the local meter is flushed', async () => {
    // Arrange
    const { usage } = await setup();
    const meter = new WriteBehindUsageMeter(usage, 50);

    // Act
    for (let i = 0; i < 500; i++) await meter.add(i % 5 ? FIRST : SECOND, i < 250 ? '2026-01' : '2026-02', { api_requests: 1 });
    await meter.flush();

    // Assert
    const counts = await Promise.all([FIRST, SECOND].flatMap((ws) => ['2026-01', '2026-02'].map(async (month) => (await usage.month(ws, month)).api_requests)));
    expect(counts).toEqual([200, 200, 50, 50]);
  });
});
