import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { E2E_ADMIN } from './global-setup';

/** A multipart upload whose file part names its file with the raw Content-Disposition parameter given. */
const rawUpload = async (client: ApiClient, dispositionName: string, bytes: Buffer) => {
  const boundary = `----hostile${Math.random().toString(36).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${dispositionName}\r\nContent-Type: image/png\r\n\r\n`, 'latin1'),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'),
  ]);
  const response = await fetch(`${client.baseUrl}/api/documents/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as { id: string } };
};

describe('hostile names', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;

  beforeAll(async () => {
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  it('stores a long name cut before a character that does not fit, and downloads it', async () => {
    const id = await editor.uploadDocument(`${'a'.repeat(254)}😀.png`, pngImage(16, 16), { ocr_enabled: 'false' });

    const document = (await editor.get(`/api/documents/${id}`)).body;
    const download = await editor.bytes(`/api/documents/${id}/download`);

    expect(document.filename).toBe(`${'a'.repeat(251)}.png`);
    expect(document.title).toBe('a'.repeat(251));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain(`filename*=UTF-8''${'a'.repeat(251)}.png`);
  });

  it('removes C1 controls from a filename given in its RFC 5987 form', async () => {
    const upload = await rawUpload(editor, `filename*=UTF-8''x%C2%85y%C2%9B.png`, pngImage(16, 16));

    const document = (await editor.get(`/api/documents/${upload.body.id}`)).body;

    expect(upload.status).toBe(201);
    expect(document.filename).toBe('xy.png');
  });

  it('removes a right-to-left override, so the name shows its true extension', async () => {
    const id = await editor.uploadDocument('invoice\u202efdp.png', pngImage(16, 16), { ocr_enabled: 'false' });

    const document = (await editor.get(`/api/documents/${id}`)).body;

    expect(document.filename).toBe('invoicefdp.png');
  });

  it('stores an edited title without bidirectional formatting', async () => {
    const id = await editor.uploadDocument('plain.png', pngImage(16, 16), { ocr_enabled: 'false' });

    const response = await editor.put(`/api/documents/${id}`, { title: 'Quarter \u202eRO report' });

    expect(response.status).toBe(200);
    expect(response.body.title).toBe('Quarter RO report');
  });

  it('refuses a title made only of formatting characters with a 400 on title', async () => {
    const id = await editor.uploadDocument('plain.png', pngImage(16, 16), { ocr_enabled: 'false' });

    const response = await editor.put(`/api/documents/${id}`, { title: '\u202e\u2066' });

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'title' } });
  });

  it('refuses a label name with a right-to-left override with a 400 on name', async () => {
    const response = await editor.post('/api/labels', { name: 'paid\u202ediap', color: '#336699' });

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'name', reason: 'must not contain control or bidirectional formatting characters' },
    });
  });

  it('refuses a display name with a C1 control with a 400 on display_name', async () => {
    const response = await editor.put('/api/users/profile', { display_name: 'Eve\u009b' });

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'display_name' } });
  });
});
