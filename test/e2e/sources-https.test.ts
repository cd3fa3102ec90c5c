import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { finishedSync } from '../support/sync-status';
import { startRcloneDav, type RunningDav } from '../support/webdav-servers';

/** A certificate for 127.0.0.1 that no public authority signed, as a NAS's own is. */
const CERT_FILE = fileURLToPath(new URL('../fixtures/tls/self-signed.crt', import.meta.url));
const KEY_FILE = fileURLToPath(new URL('../fixtures/tls/self-signed.key', import.meta.url));

describe('a WebDAV source served over HTTPS with its own certificate', () => {
  const credentials = { username: 'sync', password: 'https-sync-password' };
  const env = { ADMIN_USERNAME: 'https-admin', ADMIN_PASSWORD: 'https-admin-password', NODE_EXTRA_CA_CERTS: CERT_FILE };
  let root: string;
  let dav: RunningDav;
  let trusting: RuntimeProcess;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'source-https-'));
    await writeFile(join(root, 'receipt.png'), pngImage(12, 10));
    await writeFile(join(root, 'invoice.png'), pngImage(14, 9));
    dav = await startRcloneDav({ root, ...credentials, tls: { certFile: CERT_FILE, keyFile: KEY_FILE } });
    trusting = await startRuntimeProcess({ env });
  });

  afterAll(async () => {
    await trusting?.stop();
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('syncs every file once the deployment trusts the certificate (NODE_EXTRA_CA_CERTS)', async () => {
    // Arrange
    const admin = await new ApiClient(trusting.baseUrl).login(env.ADMIN_USERNAME, env.ADMIN_PASSWORD);

    // Act
    const created = await admin.post('/api/sources', { name: 'NAS over HTTPS', type: 'webdav', url: dav.url, ...credentials });
    const status = await finishedSync(admin, created.body.id);

    // Assert
    expect(status).toMatchObject({ state: 'completed', errors: [] });
    const documents = (await admin.get(`/api/documents?source_id=${created.body.id}&per_page=100`)).body;
    expect(documents.data.map((document: { filename: string }) => document.filename).sort()).toEqual(['invoice.png', 'receipt.png']);
  }, 120_000);

  it('refuses the source, saying its certificate is not trusted, where the deployment does not trust it', async () => {
    // Arrange: the suite's runtime trusts the public authorities only
    const editor = (await new ApiClient(inject('baseUrl')).signUp('https-source')).client;

    // Act
    const created = await editor.post('/api/sources', { name: 'NAS over HTTPS', type: 'webdav', url: dav.url, ...credentials });

    // Assert
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'url', reason: "the server's TLS certificate is not trusted (self-signed, unknown authority, expired or for another name)" },
    });
    expect((await editor.get('/api/sources')).body.sources).toEqual([]);
  });
});
