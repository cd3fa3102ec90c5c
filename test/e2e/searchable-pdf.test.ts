import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { extractWords, wordRecall } from '../support/pdf-words';
import { finishedSync } from '../support/sync-status';
import { startRcloneDav, type RunningDav } from '../support/webdav-servers';
import { putFile } from '../support/webdav-tree';
import { textPdf } from '../support/text-pdf';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');
const corpus = (name: string) => readFileSync(join(CORPUS, name));

/** The words of a document's text, as OCR read them. */
const wordsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

describe('searchable PDF', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;

  /** Polls until the document's OCR has finished, then until its searchable PDF is there (written right after). */
  const searchablePdf = async (id: string, timeoutMs = 120_000): Promise<Buffer> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const response = await editor.bytes(`/api/documents/${id}/searchable-pdf`);
      if (response.status === 200) {
        expect(response.headers.get('content-type')).toBe('application/pdf');
        return response.bytes;
      }
      expect(response.status).toBe(404);
      const { details } = (JSON.parse(response.bytes.toString('utf8')) as { error: { details: { reason: string } } }).error;
      expect(['ocr_not_completed', 'not_written_yet']).toContain(details.reason);
      if (Date.now() > deadline) throw new Error(`document ${id} never got a searchable PDF: ${details.reason}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
  };

  const content = async (id: string): Promise<string> => (await editor.get(`/api/documents/${id}`)).body.content as string;

  beforeAll(async () => {
    editor = (await anonymous.signUp('searchable')).client;
  });

  it('gives an uploaded scan back as a PDF in which pdftotext finds every word OCR read, on v1 and v2', async () => {
    const id = await editor.uploadDocument('linn.png', corpus('linn.png'));

    const pdf = await searchablePdf(id);

    const [page] = await extractWords(pdf);
    expect(wordRecall(wordsOf(await content(id)), page!.words.map((word) => word.text))).toBe(1);
    const v2 = await editor.bytes(`/api/v2/documents/${id}/searchable-pdf`);
    expect(v2.status).toBe(200);
    expect(v2.bytes.equals(pdf)).toBe(true);
  }, 180_000);

  it('answers 404 with details.reason for a born-digital PDF, whose every page kept its text layer', async () => {
    const id = await editor.uploadDocument('letter.pdf', textPdf([['Quarterly invoice 4711 for ACME Corporation']]));
    // The reason is recorded right after the run completes.
    let response = await editor.get(`/api/documents/${id}/searchable-pdf`);
    for (let i = 0; i < 400 && ['ocr_not_completed', 'not_written_yet'].includes(response.body.error?.details?.reason); i++) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
      response = await editor.get(`/api/documents/${id}/searchable-pdf`);
    }

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: { code: 'NOT_FOUND', details: { reason: 'no_ocred_pages' } } });
  }, 120_000);

  it('deletes the searchable PDF with its document', async () => {
    const id = await editor.uploadDocument('typewriter.png', corpus('typewriter.png'));
    await searchablePdf(id);

    expect((await editor.delete(`/api/documents/${id}`)).status).toBe(204);

    const response = await editor.get(`/api/documents/${id}/searchable-pdf`);
    expect(response.status).toBe(404);
    expect(response.body.error.details).toMatchObject({ resource: 'Document', id });
  }, 180_000);

  describe('through a source sync', () => {
    let root: string;
    let dav: RunningDav;
    const credentials = { username: 'sync', password: 'correct horse battery' };

    beforeAll(async () => {
      // A workspace of its own: a synced file equal to an upload above would be a duplicate, not a document.
      editor = (await anonymous.signUp('searchable_sync')).client;
      root = await mkdtemp(join(tmpdir(), 'searchable-source-'));
      dav = await startRcloneDav({ root, ...credentials });
    });

    afterAll(async () => {
      await dav?.stop();
      await rm(root, { recursive: true, force: true });
    });

    it('writes one for a synced scan, and a new one when the sync brings a changed file', async () => {
      await putFile(dav, 'scans/letter.png', corpus('linn.png'));
      const created = await editor.post('/api/sources', { name: 'Scanner', type: 'webdav', url: dav.url, ...credentials, sync_interval: 3600, recursive: true, file_patterns: ['*.png'] });
      expect(created.status).toBe(201);
      const sourceId = created.body.id as string;
      expect(await finishedSync(editor, sourceId)).toMatchObject({ state: 'completed', new: 1 });
      const [document] = (await editor.get(`/api/documents?source_id=${sourceId}`)).body.data as { id: string }[];
      const first = await searchablePdf(document!.id);
      expect(wordsOf((await extractWords(first))[0]!.words.map((word) => word.text).join(' '))).toContain('LinnSequencer');

      await putFile(dav, 'scans/letter.png', corpus('typewriter.png'));
      const started = await editor.post(`/api/sources/${sourceId}/sync`);
      expect(await finishedSync(editor, sourceId, started.body.job_id)).toMatchObject({ state: 'completed', changed: 1 });

      const deadline = Date.now() + 180_000;
      let second = await searchablePdf(document!.id);
      while (second.equals(first) && Date.now() < deadline) {
        await new Promise((resolveWait) => setTimeout(resolveWait, 500));
        second = await searchablePdf(document!.id);
      }
      const [page] = await extractWords(second);
      expect(page!.words.map((word) => word.text)).not.toContain('LinnSequencer');
      expect(wordRecall(wordsOf(await content(document!.id)), page!.words.map((word) => word.text))).toBe(1);
    }, 300_000);
  });
});
