import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { characterErrorRate } from '../support/text-metrics';
import { eventually } from '../support/until';
import { mixedPdf } from '../support/mixed-pdf';
import { emptyPdf, encryptedPdf, textPdf } from '../support/text-pdf';
import { E2E_ADMIN } from './global-setup';
import { LOCAL_OCR_JOBS } from '../../shared/local/composition';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');
const corpus = (name: string) => readFileSync(join(CORPUS, name));

const SETTLED = new Set(['completed', 'failed']);

describe('OCR pipeline', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;


  /** Polls a document as a client would until its OCR has finished one way or the other. */
  const settled = async (id: string, timeoutMs = 90_000): Promise<ApiResponse> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const response = await editor.get(`/api/documents/${id}`);
      if (SETTLED.has(response.body?.status)) return response;
      if (Date.now() > deadline) throw new Error(`document ${id} never settled: ${JSON.stringify(response.body)}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
  };

  beforeAll(async () => {
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  it('reads a scan into the document text with its confidence, and notifies the uploader', async () => {
    const id = await editor.uploadDocument('linn.png', corpus('linn.png'));

    const document = (await settled(id)).body;

    expect(document.status).toBe('completed');
    expect(characterErrorRate(readFileSync(join(CORPUS, 'linn.txt'), 'utf8'), document.content)).toBeLessThan(0.02);
    expect(document.ocr_confidence).toBeGreaterThan(0.5);
    expect(document.ocr_confidence).toBeLessThanOrEqual(1);
    // The run ends the document completed, then writes its notification: a client may see the one first.
    const { notifications } = (
      await eventually(
        () => editor.get('/api/notifications'),
        (response) =>
          response.body.notifications.some(
            (notification: { type: string; data?: { document_id?: string } }) => notification.type === 'ocr_completed' && notification.data?.document_id === id,
          ),
        60_000,
        'the ocr_completed notification',
      )
    ).body;
    expect(notifications).toContainEqual(
      expect.objectContaining({ type: 'ocr_completed', read: false, data: { document_id: id }, title: expect.any(String), message: expect.any(String) }),
    );
  }, 120_000);

  it('takes the text layer of a PDF that has one, with confidence 1', async () => {
    const id = await editor.uploadDocument('letter.pdf', textPdf([['Quarterly invoice 4711 for ACME Corporation', 'Payable within thirty days']]));

    const document = (await settled(id)).body;

    expect(document).toMatchObject({ status: 'completed', ocr_confidence: 1 });
    expect(document.content).toContain('Quarterly invoice 4711');
  });

  it('keeps the exact text of a PDF whose one page reads "Alpha alphaxpkcbgsjl", finds it by its word and counts the page under text_layer', async () => {
    const id = await editor.uploadDocument('alpha.pdf', textPdf([['Alpha alphaxpkcbgsjl']]));

    const document = (await settled(id)).body;

    expect(document).toMatchObject({ status: 'completed', ocr_confidence: 1, content: 'Alpha alphaxpkcbgsjl', pages_ocred_by_engine: { text_layer: 1 } });
    await editor.searchable(id);
    const found = await editor.get('/api/search?q=alphaxpkcbgsjl');
    expect(found.body.results.map((hit: { document_id: string }) => hit.document_id)).toContain(id);
  });

  it('keeps the text of a born-digital PDF with a blank page and a page number-only page, OCRing none of them', async () => {
    const id = await editor.uploadDocument('report.pdf', textPdf([['Quarterly report of the allotment society'], [], ['3']]));

    const document = (await settled(id)).body;

    expect(document).toMatchObject({ status: 'completed', ocr_confidence: 1, pages_ocred_by_engine: { text_layer: 2 } });
    expect(document.content).toBe('Quarterly report of the allotment society\n\f\n\n\f\n3');
  });

  it('OCRs only the scanned page of a mixed PDF: 1 text_layer + 1 tesseract', async () => {
    const pdf = await mixedPdf([{ text: ['Cover letter with an exact text layer'] }, { png: corpus('linn.png') }]);
    const id = await editor.uploadDocument('mixed.pdf', pdf);

    const document = (await settled(id)).body;

    expect(document).toMatchObject({ status: 'completed', pages_ocred_by_engine: { text_layer: 1, tesseract: 1 } });
    expect(document.content.startsWith('Cover letter with an exact text layer\n\f\n')).toBe(true);
    expect(document.content).toContain('LinnSequencer');
    expect(document.ocr_confidence).toBeLessThan(1);
  }, 120_000);

  it.each([
    ['invalid.pdf', () => corpus('invalid.pdf')],
    ['hugemono.pdf', () => corpus('hugemono.pdf')],
    ['enormous.pdf', () => corpus('enormous.pdf')],
    ['encrypted.pdf', () => encryptedPdf([['secret text']])],
    ['truncated.png', () => corpus('linn.png').subarray(0, 20_000)],
    ['empty-pages.pdf', () => emptyPdf()],
  ])('ends %s failed with a reason, and keeps serving', async (name, bytes) => {
    const id = await editor.uploadDocument(name, bytes());

    const document = (await settled(id)).body;

    expect(document.status).toBe('failed');
    expect(document.failure_reason).toEqual(expect.any(String));
    expect(document.failure_reason.length).toBeGreaterThan(0);
    const next = await editor.uploadDocument('after.pdf', textPdf([['The worker still serves requests after a bad file']]));
    expect((await settled(next)).body.status).toBe('completed');
  }, 120_000);

  it('retries a failed document as a new run in the asked languages', async () => {
    const id = await editor.uploadDocument('invalid.pdf', corpus('invalid.pdf'));
    await settled(id);

    const retry = await editor.post(`/api/documents/${id}/retry-ocr`, { language: 'eng+deu', priority: 'high' });

    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ id, status: 'pending', priority: 'high', language: 'eng+deu' });
    expect((await settled(id)).body).toMatchObject({ status: 'failed', language: 'eng+deu' });
    const jobs = (await editor.get('/api/ocr/queue?status=failed&per_page=100')).body.data;
    expect(jobs.find((job: { id: string }) => job.id === id)).toMatchObject({ run: 2, language: 'eng+deu', priority: 'high' });
  }, 60_000);

  it('refuses an OCR language that is not installed, at upload and at retry', async () => {
    const body = new FormData();
    body.append('language', 'xyz');
    body.append('file', new Blob([corpus('linn.png')]), 'linn.png');
    const id = await editor.uploadDocument('plain.pdf', textPdf([['plain text']]), { ocr_enabled: 'false' });

    const atUpload = await editor.upload('/api/documents/upload', body);
    const atRetry = await editor.post(`/api/documents/${id}/retry-ocr`, { language: 'eng+xyz' });

    expect(atUpload.status).toBe(400);
    expect(atUpload.body.error.details.field).toBe('language');
    expect(atRetry.status).toBe(400);
    expect(atRetry.body.error.details.reason).toContain('xyz');
  });

  it('lets a high-priority job overtake queued normal ones, and cancels a queued job', async () => {
    // multipage.pdf and linn.png copies fill every normal job slot of the runtime for a while; the next two
    // normal jobs wait behind them.
    const busy = await editor.uploadDocument('multipage.pdf', corpus('multipage.pdf'));
    for (let slot = 1; slot < LOCAL_OCR_JOBS.normal; slot++) await editor.uploadDocument(`busy-${slot}.png`, corpus('linn.png'));
    const waiting = await editor.uploadDocument('waiting.png', corpus('typewriter.png'));
    const urgent = await editor.uploadDocument('urgent.png', corpus('linn.png'));

    const retryWhileBusy = await editor.post(`/api/documents/${busy}/retry-ocr`, { language: 'eng' });
    const cancelled = await editor.delete(`/api/ocr/queue/${waiting}`);
    const promoted = await editor.put(`/api/ocr/queue/${urgent}/priority`, { priority: 'high' });
    const urgentDone = await settled(urgent);
    const busyAtThatTime = (await editor.get(`/api/documents/${busy}`)).body.status;

    expect(retryWhileBusy.status).toBe(409);
    expect(retryWhileBusy.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { document_id: busy } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ id: waiting, status: 'cancelled' });
    expect((await editor.get(`/api/documents/${waiting}`)).body).toMatchObject({ status: 'failed', failure_reason: 'cancelled' });
    expect(promoted.status).toBe(200);
    expect(urgentDone.body.status).toBe('completed');
    expect(busyAtThatTime).not.toBe('completed');
    await settled(busy, 180_000);
  }, 240_000);

  it('answers the queue status from its counters', async () => {
    const response = await editor.get('/api/ocr/queue/status');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      pending: expect.any(Number),
      processing: expect.any(Number),
      completed_today: expect.any(Number),
      failed: expect.any(Number),
      average_processing_time: expect.any(Number),
      estimated_completion: expect.any(String),
    });
    expect(response.body.completed_today).toBeGreaterThan(0);
    expect(response.body.failed).toBeGreaterThan(0);
  });

  it('lists finished jobs by status and refuses to cancel one', async () => {
    const failed = await editor.get('/api/ocr/queue?status=failed&per_page=100');
    const [job] = failed.body.data;

    const cancel = await editor.delete(`/api/ocr/queue/${job.id}`);

    expect(failed.status).toBe(200);
    expect(job).toMatchObject({ document_id: job.id, status: 'failed', failure_reason: expect.any(String) });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.details).toMatchObject({ document_id: job.id, status: 'failed' });
  });

  it('answers the OCR metrics from the stored totals', async () => {
    const response = await editor.get('/api/metrics/ocr');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      total_processed: expect.any(Number),
      success_rate: expect.any(Number),
      average_processing_time: expect.any(Number),
      languages_used: expect.objectContaining({ eng: expect.any(Number) }),
    });
    expect(response.body.success_rate).toBeGreaterThan(0);
    expect(response.body.success_rate).toBeLessThan(1);
    expect(response.body.daily_stats).toContainEqual(expect.objectContaining({ date: new Date().toISOString().slice(0, 10) }));
  });
});

describe('notifications', () => {
  const anonymous = new ApiClient(inject('baseUrl'));

  it('are each user\'s own: another user can neither see nor mark them', async () => {
    const admin = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const { client: other } = await admin.addMember('editor', 'other');
    const [mine] = (await admin.get('/api/notifications')).body.notifications;

    const theirs = await other.get('/api/notifications');
    const markAsOther = await other.put(`/api/notifications/${mine.id}/read`);

    expect(theirs.body).toEqual({ notifications: [] });
    expect(markAsOther.status).toBe(404);
  });

  it('marks one read, then all, and lists only unread ones on request', async () => {
    const admin = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const [first] = (await admin.get('/api/notifications?unread_only=true')).body.notifications;

    const one = await admin.put(`/api/notifications/${first.id}/read`);
    const unreadAfterOne = (await admin.get('/api/notifications?unread_only=true')).body.notifications;
    const all = await admin.put('/api/notifications/read-all');
    const unreadAfterAll = (await admin.get('/api/notifications?unread_only=true')).body.notifications;

    expect(one.status).toBe(200);
    expect(one.body).toEqual({ id: first.id, read: true });
    expect(unreadAfterOne.map((n: { id: string }) => n.id)).not.toContain(first.id);
    expect(all.status).toBe(200);
    expect(unreadAfterAll).toEqual([]);
    expect((await admin.get('/api/notifications')).body.notifications.every((n: { read: boolean }) => n.read)).toBe(true);
  });
});
