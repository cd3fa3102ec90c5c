import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { E2E_ADMIN } from './global-setup';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');

/** A real PDF grown past the multipart limit with comment lines after %%EOF, which PDF readers ignore. */
const largePdf = (megabytes: number): Buffer => {
  const pdf = readFileSync(join(CORPUS, 'cardinal.pdf'));
  const padding = Buffer.from(`\n%${'x'.repeat(1022)}`.repeat(megabytes * 1024));
  return Buffer.concat([pdf, padding]);
};

const put = (url: string, bytes: Buffer) => fetch(url, { method: 'PUT', body: bytes });

describe('large uploads through a presigned URL', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;

  const announce = (body: Record<string, unknown>) => editor.post('/api/documents/upload-url', body);

  /** Polls the document until the ingest has run: the document, or the upload's refusal. */
  const settled = async (id: string): Promise<ApiResponse> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const response = await editor.get(`/api/documents/${id}`);
      if (response.status === 200 || response.body?.error?.details?.upload?.state === 'rejected') return response;
      if (Date.now() > deadline) throw new Error(`upload ${id} never settled: ${JSON.stringify(response.body)}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    }
  };

  beforeAll(async () => {
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  it('answers 201 with a presigned PUT, the future document id and when the URL expires', async () => {
    const response = await announce({ filename: 'big.pdf', size: 1234 });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      document_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      upload_url: expect.stringMatching(/^http/),
      method: 'PUT',
      headers: {},
      max_size: 500 * 1024 * 1024,
      expires_at: expect.any(String),
    });
    expect(Date.parse(response.body.expires_at)).toBeGreaterThan(Date.now());
  });

  it('turns a file too large for multipart into a document once it is PUT, byte for byte', async () => {
    const bytes = largePdf(7);
    const label = (await editor.post('/api/labels', { name: `big-${Date.now()}`, color: '#123456' })).body.id;
    const grant = (await announce({ filename: 'scans/Big report.pdf', size: bytes.length, title: 'Big report', labels: [label], ocr_enabled: false })).body;

    const stored = await put(grant.upload_url, bytes);
    const document = await settled(grant.document_id);

    expect(stored.status).toBe(200);
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({
      id: grant.document_id,
      title: 'Big report',
      filename: 'Big report.pdf',
      mime_type: 'application/pdf',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      labels: [label],
      status: 'completed',
    });
    const download = await fetch(`${editor.baseUrl}/api/documents/${grant.document_id}/download`, {
      headers: { authorization: `Bearer ${editor.token}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('says the file is still awaited while nothing was PUT', async () => {
    const grant = (await announce({ filename: 'later.pdf', size: 10 })).body;

    const response = await editor.get(`/api/documents/${grant.document_id}`);

    expect(response.status).toBe(404);
    expect(response.body.error.details).toMatchObject({ id: grant.document_id, upload: { state: 'awaiting_file' } });
  });

  it('refuses a file whose size differs from the one announced, and keeps no document', async () => {
    const bytes = largePdf(1);
    const grant = (await announce({ filename: 'liar.pdf', size: bytes.length - 1 })).body;

    await put(grant.upload_url, bytes);
    const response = await settled(grant.document_id);

    expect(response.status).toBe(404);
    expect(response.body.error.details.upload).toEqual({ state: 'rejected', reason: expect.stringContaining('not the') });
  });

  it('refuses an executable, whatever its name', async () => {
    const bytes = Buffer.concat([Buffer.from('MZ\x90\x00'), randomBytes(4096)]);
    const grant = (await announce({ filename: 'setup.pdf', size: bytes.length })).body;

    await put(grant.upload_url, bytes);
    const response = await settled(grant.document_id);

    expect(response.body.error.details.upload).toEqual({ state: 'rejected', reason: expect.stringContaining('content is not one of') });
  });

  it('refuses sizes of 0 and above 500 MB, and unknown labels, before giving a URL', async () => {
    const empty = await announce({ filename: 'a.pdf', size: 0 });
    const huge = await announce({ filename: 'a.pdf', size: 500 * 1024 * 1024 + 1 });
    const unknownLabel = await announce({ filename: 'a.pdf', size: 10, labels: ['00000000-0000-4000-8000-000000000000'] });

    expect([empty.status, huge.status, unknownLabel.status]).toEqual([400, 400, 400]);
    expect(empty.body.error.details.field).toBe('size');
    expect(huge.body.error.details.field).toBe('size');
    expect(unknownLabel.body.error.details.unknown_label_ids).toEqual(['00000000-0000-4000-8000-000000000000']);
  });

  it('is refused to a viewer', async () => {
    const { client: viewer } = await editor.addMember('viewer');

    const response = await viewer.post('/api/documents/upload-url', { filename: 'a.pdf', size: 10 });

    expect(response.status).toBe(403);
  });
});
