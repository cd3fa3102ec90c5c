import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

const MIB = 1024 * 1024;
const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');
const ADMIN = { username: 'size-admin', password: 'size-admin-password' };

/** A real PDF padded with comment lines to about `megabytes` MiB more. */
const paddedPdf = (megabytes: number): Buffer =>
  Buffer.concat([readFileSync(join(CORPUS, 'cardinal.pdf')), Buffer.from(`\n%${'x'.repeat(1022)}`.repeat(megabytes * 1024))]);

const form = (bytes: Buffer) => {
  const body = new FormData();
  body.append('ocr_enabled', 'false');
  body.append('file', new Blob([bytes]), 'big.pdf');
  return body;
};

/** Sends only the head of a request declaring `length` body bytes, and resolves with the answer. */
const declare = (baseUrl: string, path: string, length: number) =>
  new Promise<{ status: number; requestId: string | undefined; body: { error: { details: Record<string, unknown>; request_id: string } } }>(
    (resolveAnswer, reject) => {
      const outgoing = httpRequest(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': length } });
      outgoing.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          outgoing.destroy();
          resolveAnswer({ status: response.statusCode ?? 0, requestId: response.headers['x-request-id'] as string | undefined, body: JSON.parse(text) });
        });
      });
      outgoing.on('error', reject);
      outgoing.flushHeaders();
    },
  );

describe('the maximum request size', () => {
  it('is 100 MiB when unset: a body declared one byte longer is 413 before it is read', async () => {
    const answer = await declare(inject('baseUrl'), '/api/auth/login', 100 * MIB + 1);

    expect(answer.status).toBe(413);
    expect(answer.body.error.details).toEqual({ limit_bytes: 100 * MIB, received_bytes: 100 * MIB + 1 });
    expect(answer.body.error.request_id).toBe(answer.requestId);
  });

  describe('set to 6 MiB (MAX_REQUEST_SIZE_MB=6)', () => {
    let runtime: RuntimeProcess;
    let editor: ApiClient;

    beforeAll(async () => {
      runtime = await startRuntimeProcess({
        env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, MAX_REQUEST_SIZE_MB: '6' },
      });
      editor = await new ApiClient(runtime.baseUrl).login(ADMIN.username, ADMIN.password);
    }, 120_000);

    afterAll(async () => {
      await runtime?.stop();
    });

    it('takes a multipart upload above the cloud\'s 4 MiB that fits the local limit', async () => {
      const response = await editor.upload('/api/documents/upload', form(paddedPdf(5)));

      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ id: expect.any(String), ocr_queued: false });
    });

    it('refuses a multipart upload above it with 413 pointing to the presigned upload', async () => {
      const response = await editor.upload('/api/documents/upload', form(paddedPdf(7)));

      expect(response.status).toBe(413);
      expect(response.body.error).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        details: { limit_bytes: 6 * MIB, use: 'POST /api/documents/upload-url' },
      });
      expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
    });

    it('refuses a bulk upload above it the same way, under /api/v2/ too', async () => {
      const body = new FormData();
      body.append('files', new Blob([paddedPdf(4)]), 'a.pdf');
      body.append('files', new Blob([paddedPdf(4)]), 'b.pdf');

      const response = await editor.upload('/api/v2/documents/bulk-upload', body);

      expect(response.status).toBe(413);
      expect(response.body.error.details.use).toBe('POST /api/documents/upload-url');
    });

    it('refuses any other body above it with 413 naming the limit', async () => {
      const response = await editor.request('PUT', '/api/settings', undefined, {
        rawBody: JSON.stringify({ theme: 'x'.repeat(6 * MIB) }),
        headers: { 'content-type': 'application/json' },
      });

      expect(response.status).toBe(413);
      expect(response.body.error.details).toEqual({ limit_bytes: 6 * MIB, received_bytes: expect.any(Number) });
    });
  });
});
