import { describe, expect, it } from 'vitest';
import { DynamoDocumentRepository } from '../../../../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoOcrJobRepository } from '../../../../../shared/adapters/aws/dynamodb/ocr-job-repository';
import type { DocumentRecord } from '../../../../../shared/domain/documents/document';
import { newOcrJob, type OcrPriority } from '../../../../../shared/domain/ocr/jobs';
import { freshTable } from '../../../../support/aws-resources';
import { aDocumentRecord } from '../../../../support/builders';

/** The workspace these repositories serve. */
const WORKSPACE_ID = crypto.randomUUID();

const T0 = '2026-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

const aDocument = (overrides: Partial<DocumentRecord> = {}): DocumentRecord =>
  aDocumentRecord({ title: 'scan', filename: 'scan.png', mime_type: 'image/png', created_at: T0, updated_at: T0, ...overrides });

/** A run's result, read from the file of a document built with the defaults of aDocumentRecord. */
const result = { text: 'hello', confidence: 0.9, pages: 1, processingTime: 2.5, pagesByEngine: { tesseract: 1 }, content: { text: 'hello' }, readSha256: aDocumentRecord().sha256 };

describe('DynamoOcrJobRepository', () => {
  const setup = async () => {
    const { db, tableName } = await freshTable();
    const documents = new DynamoDocumentRepository(db, tableName, WORKSPACE_ID);
    const jobs = new DynamoOcrJobRepository(db, tableName, WORKSPACE_ID);
    const upload = async (priority: OcrPriority = 'normal', overrides: Partial<DocumentRecord> = {}) => {
      const document = aDocument(overrides);
      await documents.create(document, newOcrJob(document, priority, document.created_at));
      return document.id;
    };
    return { documents, jobs, upload };
  };

  it('counts a new document with OCR as pending and lists its job in the queue', async () => {
    const { jobs, upload } = await setup();

    const id = await upload();

    expect(await jobs.counters()).toEqual({ pending: 1, processing: 0, failed: 0 });
    expect((await jobs.list({ page: 1, perPage: 20 })).data.map((job) => job.id)).toEqual([id]);
  });

  it('lets only one of two deliveries of the same run claim the job', async () => {
    const { jobs, documents, upload } = await setup();
    const id = await upload();

    const claims = await Promise.all([1, 2].map(() => jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(1), at(-600))));

    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await jobs.counters()).toEqual({ pending: 0, processing: 1, failed: 0 });
    expect((await documents.get(id))?.status).toBe('processing');
  });

  it('refuses a delivery of an older run', async () => {
    const { jobs, upload } = await setup();
    const id = await upload();
    await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(1), at(-600));
    await jobs.fail(id, 1, 'broken', at(2));
    await jobs.restart(id, { language: 'deu', priority: 'normal', by: 'editor', now: at(3) });

    const stale = await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(4), at(-600));

    expect(stale).toBeNull();
    expect((await jobs.get(id))?.run).toBe(2);
  });

  it('hands a processing job whose heartbeat went silent to another worker, and not before', async () => {
    const { jobs, upload } = await setup();
    const id = await upload();
    await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(0), at(-600));

    const whileAlive = await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(100), at(-200));
    const afterSilence = await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(700), at(400));

    expect(whileAlive).toBeNull();
    expect(afterSilence).toMatchObject({ status: 'processing', attempts: 2 });
  });

  it('completes a job with its text, confidence and totals, and never completes it twice', async () => {
    const { jobs, documents, upload } = await setup();
    const id = await upload();
    await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(0), at(-600));

    const first = await jobs.complete(id, 1, result, at(3));
    const second = await jobs.complete(id, 1, result, at(4));

    expect([first, second]).toEqual(['completed', 'not_held']);
    expect(await documents.get(id)).toMatchObject({ status: 'completed', ocr_confidence: 0.9 });
    expect(await documents.getContent(id)).toEqual({ text: 'hello' });
    expect(await jobs.counters()).toEqual({ pending: 0, processing: 0, failed: 0 });
    expect(await jobs.totals()).toEqual({ completed: 1, failed: 0, processing_seconds: 2.5, languages: { eng: 1 } });
    expect(await jobs.daily('2026-03-01', '2026-03-01')).toEqual([{ date: '2026-03-01', completed: 1, failed: 0, processing_seconds: 2.5, languages: { eng: 1 } }]);
  });

  it('completes nothing when the document holds another file than the run read, and says so', async () => {
    const { jobs, documents, upload } = await setup();
    const id = await upload();
    await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(0), at(-600));

    const outcome = await jobs.complete(id, 1, { ...result, readSha256: 'sha-of-an-older-file' }, at(3));

    expect(outcome).toBe('file_replaced');
    expect(await jobs.get(id)).toMatchObject({ status: 'processing', run: 1 });
    expect(await documents.getContent(id)).toEqual({ text: '' });
    expect(await jobs.totals()).toEqual({ completed: 0, failed: 0, processing_seconds: 0, languages: {} });
  });

  it('hands a processing job on to a new run only for the run that holds it', async () => {
    const { jobs, upload } = await setup();
    const id = await upload();
    await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(0), at(-600));
    const options = { language: 'eng', priority: 'normal' as const, by: 'uploader', now: at(3) };

    const byAnother = await jobs.restart(id, { ...options, heldRun: 7 });
    const byHolder = await jobs.restart(id, { ...options, heldRun: 1 });

    expect(byAnother).toBe('busy');
    expect(byHolder).toMatchObject({ status: 'queued', run: 2, attempts: 0 });
    expect(await jobs.counters()).toEqual({ pending: 1, processing: 0, failed: 0 });
  });

  it('never lets a late failure regress a completed document', async () => {
    const { jobs, documents, upload } = await setup();
    const id = await upload();
    await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(0), at(-600));
    await jobs.complete(id, 1, result, at(3));

    const failed = await jobs.fail(id, 1, 'late', at(5));

    expect(failed).toBe(false);
    expect((await documents.get(id))?.status).toBe('completed');
  });

  it('keeps the counters exact across many concurrent transitions', async () => {
    const { jobs, upload } = await setup();
    const ids = await Promise.all(Array.from({ length: 8 }, () => upload()));

    await Promise.all(ids.map((id) => jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(1), at(-600))));
    await Promise.all(ids.map((id, i) => (i % 2 ? jobs.complete(id, 1, result, at(2)) : jobs.fail(id, 1, 'unreadable', at(2)))));

    expect(await jobs.counters()).toEqual({ pending: 0, processing: 0, failed: 4 });
    expect(await jobs.totals()).toMatchObject({ completed: 4, failed: 4 });
  });

  it('cancels a queued job at once and ends its document failed with reason cancelled', async () => {
    const { jobs, documents, upload } = await setup();
    const id = await upload();

    const outcome = await jobs.cancel(id, at(1));

    expect(outcome).toBe('cancelled');
    expect(await documents.get(id)).toMatchObject({ status: 'failed', failure_reason: 'cancelled' });
    expect(await jobs.counters()).toEqual({ pending: 0, processing: 0, failed: 1 });
    expect((await jobs.totals()).failed).toBe(0);
  });

  it('asks the worker of a processing job to stop at its next heartbeat', async () => {
    const { jobs, upload } = await setup();
    const id = await upload();
    await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(0), at(-600));

    const outcome = await jobs.cancel(id, at(1));
    const heartbeat = await jobs.heartbeat(id, 1, 50, 2, at(2));

    expect(outcome).toBe('requested');
    expect(heartbeat).toEqual({ cancelRequested: true });
  });

  it('does not complete a job whose cancel was asked for after its last heartbeat', async () => {
    const { jobs, documents, upload } = await setup();
    const id = await upload();
    await jobs.claim({ documentId: id, run: 1, priority: 'normal' }, at(0), at(-600));
    await jobs.cancel(id, at(1));

    const outcome = await jobs.complete(id, 1, result, at(2));

    expect(outcome).toBe('cancel_requested');
    expect(await documents.get(id)).toMatchObject({ status: 'processing' });
    expect(await jobs.totals()).toMatchObject({ completed: 0 });
  });

  it('refuses a restart while a run is queued, and restarts a failed one as a new run', async () => {
    const { jobs, documents, upload } = await setup();
    const id = await upload();

    const whileQueued = await jobs.restart(id, { language: 'eng', priority: 'high', by: 'editor', now: at(1) });
    await jobs.cancel(id, at(2));
    const afterCancel = await jobs.restart(id, { language: 'eng+deu', priority: 'high', by: 'editor', now: at(3) });

    expect(whileQueued).toBe('busy');
    expect(afterCancel).toMatchObject({ status: 'queued', run: 2, priority: 'high', language: 'eng+deu' });
    expect(await documents.get(id)).toMatchObject({ status: 'pending', language: 'eng+deu' });
    expect(await jobs.counters()).toEqual({ pending: 1, processing: 0, failed: 0 });
  });

  it('starts the first run of a document uploaded without OCR', async () => {
    const { jobs, documents } = await setup();
    const document = aDocument({ ocr_enabled: false, status: 'completed' });
    await documents.create(document);

    const job = await jobs.restart(document.id, { language: 'eng', priority: 'normal', by: 'editor', now: at(1) });

    expect(job).toMatchObject({ run: 1, status: 'queued' });
    expect((await documents.get(document.id))?.status).toBe('pending');
  });

  it('lists high-priority jobs before older normal ones, and filters by priority', async () => {
    const { jobs, upload } = await setup();
    const normal = await upload('normal', { created_at: at(0) });
    const high = await upload('high', { created_at: at(10) });

    const all = await jobs.list({ page: 1, perPage: 20 });
    const onlyNormal = await jobs.list({ page: 1, perPage: 20, priority: 'normal' });

    expect(all.data.map((job) => job.id)).toEqual([high, normal]);
    expect(onlyNormal.data.map((job) => job.id)).toEqual([normal]);
    expect(onlyNormal.pagination.total).toBe(1);
  });

  it('changes the priority of a queued job only', async () => {
    const { jobs, upload } = await setup();
    const queued = await upload();
    const started = await upload();
    await jobs.claim({ documentId: started, run: 1, priority: 'normal' }, at(1), at(-600));

    expect(await jobs.setPriority(queued, 'high')).toMatchObject({ priority: 'high' });
    expect(await jobs.setPriority(started, 'high')).toBe('not_queued');
  });

  it('finds jobs queued too long and processing jobs gone silent', async () => {
    const { jobs, upload } = await setup();
    const old = await upload('normal', { created_at: at(0) });
    await upload('normal', { created_at: at(1000) });
    const silent = await upload('normal', { created_at: at(0) });
    await jobs.claim({ documentId: silent, run: 1, priority: 'normal' }, at(10), at(-600));

    const stuck = await jobs.stuck(at(500), at(500));

    expect(stuck.map((job) => job.id).sort()).toEqual([old, silent].sort());
  });

  it('removes the job and its count when the document is deleted', async () => {
    const { jobs, documents, upload } = await setup();
    const id = await upload();

    await documents.delete(id);

    expect(await jobs.get(id)).toBeNull();
    expect(await jobs.counters()).toEqual({ pending: 0, processing: 0, failed: 0 });
  });
});
