import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { watchRuntimeDuring } from '../support/health-watch';
import { issue12BombPdf, slowDrawingPdf } from '../support/hostile-files';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { textPdf } from '../support/text-pdf';

const HEALTH_WITHIN_MS = 2000;

describe('hostile files', () => {
  let runtime: RuntimeProcess;
  let editor: ApiClient;

  const thumbnail = (id: string, side: number) => editor.get(`/api/documents/${id}/thumbnail?width=${side}&height=${side}`);

  /** Resolves with the document once its status is terminal, polling; rejects after `withinMs`. */
  const terminal = async (id: string, withinMs: number): Promise<{ status: string; failure_reason?: string }> => {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const document = (await editor.get(`/api/documents/${id}`)).body;
      if (document.status === 'completed' || document.status === 'failed') return document;
      if (Date.now() > deadline) throw new Error(`document ${id} still ${document.status} after ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  beforeAll(async () => {
    runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: 'hostile-admin', ADMIN_PASSWORD: 'hostile-admin-password', IMAGING_WORKERS: '2' } });
    editor = await new ApiClient(runtime.baseUrl).login('hostile-admin', 'hostile-admin-password');
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers health within 2 s while the issue 12 bomb is OCRed and six thumbnails of it are asked at once, and refuses it', async () => {
    const id = await editor.uploadDocument('issue-12.pdf', issue12BombPdf());

    const thumbnails = Promise.all([101, 102, 103, 104, 105, 106].map((side) => thumbnail(id, side)));
    const document = terminal(id, 60_000);
    const watch = await watchRuntimeDuring(runtime, Promise.all([thumbnails, document]));

    expect(watch.slowestHealthMs).toBeLessThan(HEALTH_WITHIN_MS);
    for (const response of await thumbnails) {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file', reason: expect.stringContaining('inflates to more than') } });
    }
    expect(await document).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('inflates to more than') });
  });

  it('answers a new size of a file refused before with 400 at once', async () => {
    const id = await editor.uploadDocument('slow.pdf', slowDrawingPdf(), { ocr_enabled: 'false' });
    expect((await thumbnail(id, 64)).status).toBe(400);

    const started = performance.now();
    const again = await thumbnail(id, 65);

    expect(again.status).toBe(400);
    expect(again.body.error.details).toMatchObject({ field: 'file', reason: expect.stringContaining('longer than') });
    expect(performance.now() - started).toBeLessThan(1000);
  }, 60_000);

  it("serves other documents' thumbnails while one document's renders are stuck at six sizes", async () => {
    const stuckId = await editor.uploadDocument('stuck.pdf', slowDrawingPdf(), { ocr_enabled: 'false' });
    const otherId = await editor.uploadDocument('other.pdf', textPdf([['An ordinary page of text.']]), { ocr_enabled: 'false' });
    const stuck = Promise.all([81, 82, 83, 84, 85, 86].map((side) => thumbnail(stuckId, side)));

    const started = performance.now();
    const other = await editor.bytes(`/api/documents/${otherId}/thumbnail?width=80&height=80`);
    const otherMs = performance.now() - started;

    expect(other.status).toBe(200);
    // Not queued behind the stuck render, which is stopped only at the 8 s render timeout.
    expect(otherMs).toBeLessThan(8000);
    for (const response of await stuck) expect(response.status).toBe(400);
  }, 60_000);
});
