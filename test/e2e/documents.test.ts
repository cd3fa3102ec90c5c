import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { eventually } from '../support/until';
import { ApiClient } from '../support/api-client';
import { pdfDocument, pngImage, pngSize, tiffImage } from '../support/fixtures';
import { typedClient } from '../support/typed-client';
import { E2E_ADMIN } from './global-setup';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');
const corpus = (name: string) => readFileSync(join(CORPUS, name));

const form = (files: { field?: string; name: string; bytes: Buffer; type?: string }[], fields: Record<string, string> = {}) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const file of files) body.append(file.field ?? 'file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  return body;
};

describe('documents', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;

  const newLabel = async (name = `label-${Math.random().toString(36).slice(2, 8)}`) =>
    (await editor.post('/api/labels', { name, color: '#336699' })).body.id as string;

  beforeAll(async () => {
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  describe('upload', () => {
    it('stores a file and answers 201 with its id and the OCR queueing', async () => {
      const bytes = pngImage(64, 32);

      const response = await editor.upload('/api/documents/upload', form([{ name: 'scan.png', bytes }], { title: 'A scan' }));

      expect(response.status).toBe(201);
      expect(response.body).toEqual({ id: expect.any(String), message: expect.any(String), ocr_queued: true });
      const document = (await editor.get(`/api/documents/${response.body.id}`)).body;
      expect(document).toMatchObject({
        title: 'A scan',
        filename: 'scan.png',
        mime_type: 'image/png',
        size: bytes.length,
        status: expect.stringMatching(/^(pending|processing|completed)$/),
        content: '',
        labels: [],
        metadata: {},
        ocr_confidence: null,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
    });

    it('marks a document uploaded without OCR as completed and queues nothing', async () => {
      const response = await editor.upload('/api/documents/upload', form([{ name: 'note.pdf', bytes: pdfDocument('no ocr') }], { ocr_enabled: 'false' }));

      expect(response.body.ocr_queued).toBe(false);
      expect((await editor.get(`/api/documents/${response.body.id}`)).body.status).toBe('completed');
    });

    it('takes the type from the bytes, not from the name or the client', async () => {
      const id = await editor
        .upload('/api/documents/upload', form([{ name: 'looks-like.pdf', bytes: pngImage(8, 8), type: 'application/pdf' }]))
        .then((r) => r.body.id);

      expect((await editor.get(`/api/documents/${id}`)).body.mime_type).toBe('image/png');
    });

    it('refuses an executable renamed .pdf', async () => {
      const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(512, 0x90)]);

      const response = await editor.upload('/api/documents/upload', form([{ name: 'invoice.pdf', bytes: exe, type: 'application/pdf' }]));

      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('file');
    });

    it('refuses an empty file', async () => {
      const response = await editor.upload('/api/documents/upload', form([{ name: 'empty.pdf', bytes: Buffer.alloc(0) }]));

      expect(response.status).toBe(400);
      expect(response.body.error.details).toMatchObject({ field: 'file', reason: 'is empty (0 bytes)' });
    });

    it('refuses unknown label ids, naming them, and stores nothing', async () => {
      const label = await newLabel();
      const unknown = crypto.randomUUID();

      const response = await editor.upload('/api/documents/upload', form([{ name: 'x.png', bytes: pngImage(4, 4) }], { labels: `${label},${unknown}` }));

      expect(response.status).toBe(400);
      expect(response.body.error.details.unknown_label_ids).toEqual([unknown]);
      expect((await editor.get(`/api/documents?label_ids=${label}`)).body.pagination.total).toBe(0);
    });

    it('refuses a wrong field name', async () => {
      const response = await editor.upload('/api/documents/upload', form([{ field: 'document', name: 'x.png', bytes: pngImage(4, 4) }]));

      expect(response.status).toBe(400);
      expect(response.body.error.details.issues).toEqual(expect.arrayContaining([{ field: 'document', reason: 'is not a known file field' }]));
    });

    it('keeps only the last part of a path-traversal filename', async () => {
      const id = await editor.uploadDocument('../../etc/passwd.png', pngImage(4, 4));

      expect((await editor.get(`/api/documents/${id}`)).body.filename).toBe('passwd.png');
    });

    it('accepts a file that only claims to be a PDF, such as invalid.pdf', async () => {
      const response = await editor.upload('/api/documents/upload', form([{ name: 'invalid.pdf', bytes: corpus('invalid.pdf') }]));

      expect(response.status).toBe(201);
    });

    it('is refused to a viewer', async () => {
      const { client } = await editor.addMember('viewer', 'reader');

      const response = await client.upload('/api/documents/upload', form([{ name: 'x.png', bytes: pngImage(4, 4) }]));

      expect(response.status).toBe(403);
    });
  });

  describe('a multipart body cut before its closing boundary', () => {
    const truncated =
      '--BND\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 hello\r\n';

    it.each(['/api/documents/upload', '/api/documents/bulk-upload'])('is 400 at %s and the service keeps serving', async (path) => {
      const before = (await editor.get('/api/documents')).body.pagination.total;

      const response = await editor.request('POST', path, undefined, {
        headers: { 'content-type': 'multipart/form-data; boundary=BND' },
        rawBody: truncated.replace('name="file"', path.endsWith('bulk-upload') ? 'name="files"' : 'name="file"'),
      });

      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body' } });
      expect((await anonymous.get('/api/health')).status).toBe(200);
      expect((await editor.get('/api/documents')).body.pagination.total).toBe(before);
    });
  });

  describe('bulk upload', () => {
    it('reports the outcome of each file', async () => {
      const label = await newLabel();
      const files = [
        { field: 'files', name: 'a.png', bytes: pngImage(4, 4) },
        { field: 'files', name: 'b.tiff', bytes: tiffImage(4, 4) },
        { field: 'files', name: 'c.txt', bytes: Buffer.from('plain text') },
      ];

      const response = await editor.upload('/api/documents/bulk-upload', form(files, { default_labels: label }));

      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ uploaded: 2, failed: 1 });
      expect(response.body.documents.map((d: { status: string }) => d.status)).toEqual(['uploaded', 'uploaded', 'failed']);
      const listed = await eventually(() => editor.get(`/api/documents?label_ids=${label}`), (page) => page.body.pagination.total >= 2);
      expect(listed.body.pagination.total).toBe(2);
    });

    it('refuses more than 10 files, storing none', async () => {
      const label = await newLabel();
      const files = Array.from({ length: 11 }, (_, i) => ({ field: 'files', name: `f${i}.png`, bytes: pngImage(4, 4) }));

      const response = await editor.upload('/api/documents/bulk-upload', form(files, { default_labels: label }));

      // A document stored after the refusal: once the listing has it, it would have what the refusal stored.
      const after = await editor.uploadDocument('after.png', pngImage(4, 4), { labels: label, ocr_enabled: 'false' });
      const listed = await eventually(() => editor.get(`/api/documents?label_ids=${label}`), (page) => page.body.pagination.total > 0);
      expect(response.status).toBe(400);
      expect(response.body.error.details.issues).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'files' })]));
      expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([after]);
    });
  });

  describe('listing', () => {
    let label: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      label = await newLabel();
      for (const [name, size] of [['charlie', 30], ['alpha', 10], ['bravo', 20]] as const) {
        // Without OCR, so that no status changes under the filters while they are tested.
        ids[name] = await editor.uploadDocument(`${name}.png`, pngImage(size, size), { title: name, labels: label, ocr_enabled: 'false' });
      }
      // Filtered listings follow the table's stream.
      await eventually(() => editor.get(`/api/documents?label_ids=${label}`), (page) => page.body.pagination.total === 3);
    });

    const titles = async (query: string) =>
      (await editor.get(`/api/documents?label_ids=${label}&${query}`)).body.data.map((d: { title: string }) => d.title);

    it('lists newest first by default, without the extracted text', async () => {
      const page = await editor.get(`/api/documents?label_ids=${label}`);

      expect(page.body.data.map((d: { title: string }) => d.title)).toEqual(['bravo', 'alpha', 'charlie']);
      expect(page.body.data[0]).not.toHaveProperty('content');
    });

    it('sorts by title, size and filename in either order', async () => {
      expect(await titles('sort=title&order=asc')).toEqual(['alpha', 'bravo', 'charlie']);
      expect(await titles('sort=size&order=desc')).toEqual(['charlie', 'bravo', 'alpha']);
      expect(await titles('sort=filename&order=desc')).toEqual(['charlie', 'bravo', 'alpha']);
    });

    it('filters by status and by creation date', async () => {
      const bravo = (await editor.get(`/api/documents/${ids['bravo']}`)).body;

      expect(await titles('status=completed&sort=title&order=asc')).toEqual(['alpha', 'bravo', 'charlie']);
      expect(await titles('status=pending')).toEqual([]);
      expect(await titles(`date_from=${encodeURIComponent(bravo.created_at)}`)).toEqual(['bravo']);
      expect(await titles(`date_to=${encodeURIComponent(bravo.created_at)}&sort=title&order=asc`)).toEqual(['alpha', 'bravo', 'charlie']);
      expect(await titles('date_to=2000-01-01')).toEqual([]);
    });

    it('keeps only documents that carry all the given labels', async () => {
      const second = await newLabel();
      await editor.post(`/api/labels/${second}/assign`, { document_ids: [ids['alpha']] });

      const both = await eventually(() => editor.get(`/api/documents?label_ids=${label},${second}`), (page) => page.body.data.length > 0);

      expect(both.body.data.map((d: { id: string }) => d.id)).toEqual([ids['alpha']]);
    });

    it('pages with the P pagination block', async () => {
      // Through the client generated from the API contract (client/).
      const api = typedClient(editor.baseUrl, editor.token);
      const page = (page: number) =>
        api.GET('/api/documents', { params: { query: { label_ids: label, per_page: 2, page, sort: 'title', order: 'asc' } } });

      const [first, second] = [await page(1), await page(2)];

      expect(first.data?.pagination).toEqual({ page: 1, per_page: 2, total: 3, total_pages: 2, has_next: true, has_prev: false });
      expect(second.data?.data.map((d) => d.title)).toEqual(['charlie']);
      expect(second.data?.pagination).toMatchObject({ page: 2, has_next: false, has_prev: true });
    });

    it('pages the unfiltered listing with the total of all documents', async () => {
      const page = await editor.get('/api/documents?per_page=1');

      expect(page.body.data).toHaveLength(1);
      expect(page.body.pagination.total).toBeGreaterThanOrEqual(3);
    });

    it.each([
      ['per_page=101', 'per_page'],
      ['page=0', 'page'],
      ['sort=colour', 'sort'],
      ['order=up', 'order'],
      ['status=lost', 'status'],
      ['date_from=yesterday', 'date_from'],
      ['label_ids=not-a-uuid', 'label_ids.0'],
      ['colour=red', 'colour'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      const response = await editor.get(`/api/documents?${query}`);

      expect(response.status).toBe(400);
      expect(response.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    });
  });

  describe('one document', () => {
    it('is 404 with its id when it does not exist, and 400 when the id is malformed', async () => {
      const missing = crypto.randomUUID();

      const notFound = await editor.get(`/api/documents/${missing}`);
      const malformed = await editor.get('/api/documents/not-an-id');

      expect(notFound.status).toBe(404);
      expect(notFound.body.error.details).toMatchObject({ id: missing });
      expect(malformed.status).toBe(400);
    });

    it('changes title, labels and metadata', async () => {
      const api = typedClient(editor.baseUrl, editor.token);
      const id = await editor.uploadDocument('edit.png', pngImage(4, 4));
      const label = await newLabel();

      const response = await api.PUT('/api/documents/{id}', {
        params: { path: { id } },
        body: { title: 'Edited', labels: [label], metadata: { invoice: 'INV-1', amount: 12.5 } },
      });

      expect(response.response.status).toBe(200);
      expect(response.data).toMatchObject({ title: 'Edited', labels: [label], metadata: { invoice: 'INV-1', amount: 12.5 } });
      expect((await editor.get('/api/labels')).body.labels.find((l: { id: string }) => l.id === label).document_count).toBe(1);
    });

    it('refuses nested metadata and unknown labels', async () => {
      const id = await editor.uploadDocument('strict.png', pngImage(4, 4));

      expect((await editor.put(`/api/documents/${id}`, { metadata: { nested: { a: 1 } } })).status).toBe(400);
      expect((await editor.put(`/api/documents/${id}`, { labels: [crypto.randomUUID()] })).status).toBe(400);
    });

    it('downloads the original bytes with the filename as an attachment', async () => {
      const bytes = corpus('linn.png');
      const id = await editor.uploadDocument('Linn brochure (ä).png', bytes);

      const download = await editor.bytes(`/api/documents/${id}/download`);

      expect(download.status).toBe(200);
      expect(download.bytes.equals(bytes)).toBe(true);
      expect(download.headers.get('content-type')).toBe('image/png');
      expect(download.headers.get('content-disposition')).toBe(
        `attachment; filename="Linn brochure (_).png"; filename*=UTF-8''Linn%20brochure%20%28%C3%A4%29.png`,
      );
    });

    it('deletes the document, its files and its place in label counts', async () => {
      const label = await newLabel();
      const id = await editor.uploadDocument('gone.png', pngImage(4, 4), { labels: label });

      const deleted = await editor.delete(`/api/documents/${id}`);

      expect(deleted.status).toBe(204);
      expect((await editor.get(`/api/documents/${id}`)).status).toBe(404);
      expect((await editor.bytes(`/api/documents/${id}/download`)).status).toBe(404);
      expect((await editor.get('/api/labels')).body.labels.find((l: { id: string }) => l.id === label).document_count).toBe(0);
      expect((await editor.delete(`/api/documents/${id}`)).status).toBe(404);
    });
  });

  describe('thumbnails', () => {
    it.each([
      ['a PNG', 'wide.png', () => pngImage(400, 200), { width: 200, height: 100 }],
      ['a TIFF', 'square.tiff', () => tiffImage(300, 300), { width: 200, height: 200 }],
      ['a PDF first page', 'letter.pdf', () => pdfDocument('Thumbnail'), { width: 155, height: 200 }],
      ['a scanned PDF', 'skew.pdf', () => corpus('skew.pdf'), null],
    ])('renders %s inside the asked box', async (_, name, bytes, expected) => {
      const id = await editor.uploadDocument(name, bytes());

      const image = await editor.bytes(`/api/documents/${id}/thumbnail`);

      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      const size = pngSize(image.bytes);
      if (expected) expect(size).toEqual(expected);
      expect(Math.max(size.width, size.height)).toBe(200);
    });

    it('honours width and height, and serves the same image again', async () => {
      const id = await editor.uploadDocument('sized.png', pngImage(300, 300));

      const first = await editor.bytes(`/api/documents/${id}/thumbnail?width=64&height=64`);
      const again = await editor.bytes(`/api/documents/${id}/thumbnail?width=64&height=64`);

      expect(pngSize(first.bytes)).toEqual({ width: 64, height: 64 });
      expect(again.bytes.equals(first.bytes)).toBe(true);
    });

    it('refuses a size out of bounds', async () => {
      const id = await editor.uploadDocument('bounds.png', pngImage(4, 4));

      expect((await editor.get(`/api/documents/${id}/thumbnail?width=5000`)).status).toBe(400);
    });

    it.each(['invalid.pdf', 'hugemono.pdf'])('fails cleanly for %s and keeps serving', async (name) => {
      const id = await editor.uploadDocument(name, corpus(name));

      const response = await editor.get(`/api/documents/${id}/thumbnail`);

      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect((await editor.get('/api/health')).status).toBe(200);
    });
  });
});
