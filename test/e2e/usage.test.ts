import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { textPdf } from '../support/text-pdf';
import { E2E_ADMIN } from './global-setup';

const SCAN = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf/linn.png');

/** A client that counts the requests it sends, to compare with the workspace's `api_requests`. */
class CountingClient extends ApiClient {
  sent = 0;

  override request<T>(...args: Parameters<ApiClient['request']>): Promise<ApiResponse<T>> {
    this.sent++;
    return super.request<T>(...args);
  }

  override upload(...args: Parameters<ApiClient['upload']>): Promise<ApiResponse> {
    this.sent++;
    return super.upload(...args);
  }

  override bytes(...args: Parameters<ApiClient['bytes']>): ReturnType<ApiClient['bytes']> {
    this.sent++;
    return super.bytes(...args);
  }
}

/** The scan's searchable PDF (written by the worker just after OCR completes), waited for: its bytes count as stored. */
async function searchablePdfOf(client: ApiClient, id: string): Promise<Buffer> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
    const answer = await client.bytes(`/api/documents/${id}/searchable-pdf`);
    if (answer.status === 200) return answer.bytes;
  }
  throw new Error('no searchable PDF within 60 s');
}

/**
 * Usage counters against what a workspace did: uploads (a scan OCRed by Tesseract, text PDFs read from their text
 * layer), searches and a delete, across a clean stop and start of the runtime (request counts are written behind
 * the requests locally: the stop must write them).
 */
describe('usage metering', () => {
  let runtime: RuntimeProcess;
  let anonymous: ApiClient;
  let admin: CountingClient;
  let credentials: { username: string; password: string };
  const uploaded: Buffer[] = [];
  let searchablePdf: Buffer;

  const completed = async (id: string): Promise<void> => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { body } = await admin.get(`/api/documents/${id}`);
      if (body.status === 'completed') return;
      if (body.status === 'failed' || Date.now() > deadline) throw new Error(`OCR of ${id} did not complete: ${JSON.stringify(body)}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
  };

  beforeAll(async () => {
    runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: E2E_ADMIN.username, ADMIN_PASSWORD: E2E_ADMIN.password } });
    anonymous = new ApiClient(runtime.baseUrl);
    const signedUp = await anonymous.signUp('usage');
    credentials = { username: signedUp.user.username, password: signedUp.password };
    admin = new CountingClient(runtime.baseUrl, signedUp.client.token);
    const files: [string, Buffer][] = [
      ['scan.png', readFileSync(SCAN)],
      ['two-pages.pdf', textPdf([['Invoice INV-1 first page'], ['Invoice INV-1 second page']])],
      ['deleted.pdf', textPdf([['Invoice INV-2 to be deleted']])],
    ];
    const ids: string[] = [];
    for (const [name, bytes] of files) {
      ids.push(await admin.uploadDocument(name, bytes));
      uploaded.push(bytes);
    }
    for (const id of ids) await completed(id);
    searchablePdf = await searchablePdfOf(admin, ids[0]!);
    for (const q of ['invoice', 'page', 'nothing-matches-this']) expect((await admin.get(`/api/search?q=${q}`)).status).toBe(200);
    expect((await admin.delete(`/api/documents/${ids[2]}`)).status).toBe(204);
    // A clean stop writes the request counts still in memory; the next start reads them from the table.
    await runtime.stop();
    runtime = await startRuntimeProcess({ dataDir: runtime.dataDir, env: { ADMIN_USERNAME: E2E_ADMIN.username, ADMIN_PASSWORD: E2E_ADMIN.password } });
    const again = await new ApiClient(runtime.baseUrl).login(credentials.username, credentials.password);
    admin = Object.assign(new CountingClient(runtime.baseUrl, again.token), { sent: admin.sent });
  }, 300_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('counts the uploads, pages by engine, searches, the delete and every request of the month', async () => {
    // Act
    const { status, body } = await admin.get('/api/usage');

    // Assert
    const [scan, twoPages, deleted] = uploaded.map((bytes) => bytes.byteLength) as [number, number, number];
    const pdf = searchablePdf.byteLength;
    expect(status).toBe(200);
    expect(body).toMatchObject({
      month: new Date().toISOString().slice(0, 7),
      documents_uploaded: 3,
      documents_deleted: 1,
      documents_stored: 2,
      // Every byte written into the workspace's storage counts, the scan's searchable PDF (written by OCR) too.
      bytes_uploaded: scan + twoPages + deleted + pdf,
      bytes_deleted: deleted,
      bytes_stored: scan + twoPages + pdf,
      pages_ocred: 4,
      pages_ocred_by_engine: { tesseract: 1, text_layer: 3 },
      search_requests: 3,
    });
    // Every request before this one, the stop included; this one is counted too, but written behind it.
    expect(body.api_requests).toBe(admin.sent - 1);
  });

  it("writes a request's count within a second", async () => {
    // Arrange
    const settle = () => new Promise((resolveWait) => setTimeout(resolveWait, 1000));
    await settle();
    const { body: before } = await admin.get('/api/usage');
    await settle();

    // Act
    const { body: after } = await admin.get('/api/usage');

    // Assert
    expect(after.api_requests - before.api_requests).toBe(1);
    expect(after.api_requests).toBe(admin.sent - 1);
  });

  it("keeps the other workspace's counters apart", async () => {
    // Arrange
    const operator = await new ApiClient(runtime.baseUrl).login(E2E_ADMIN.username, E2E_ADMIN.password);

    // Act
    const { body } = await operator.get('/api/usage');

    // Assert
    expect(body).toMatchObject({ documents_uploaded: 0, search_requests: 0, pages_ocred: 0 });
  });
});
