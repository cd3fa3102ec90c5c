import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tarGzipCodec } from '../../shared/adapters/archive/tar-gzip-codec';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { textPdf } from '../support/text-pdf';
import { eventually } from '../support/until';
import { startRcloneDav, type RunningDav } from '../support/webdav-servers';
import { ChannelClient } from '../support/ws-client';

const baseUrl = inject('baseUrl');
const anonymous = new ApiClient(baseUrl);

/** Exports the admin's workspace and answers the finished export and its archive's bytes. */
async function exportWorkspace(admin: ApiClient): Promise<{ job: Record<string, unknown>; archive: Buffer }> {
  const started = await admin.post('/api/workspace/exports');
  expect(started.status).toBe(202);
  const done = await eventually(
    () => admin.get(`/api/workspace/exports/${started.body.id}`),
    (response) => ['completed', 'failed'].includes(response.body.status),
    60_000,
    'the export finished',
  );
  expect(done.body).toMatchObject({ status: 'completed', failure_reason: null });
  const download = await fetch(done.body.download_url as string);
  expect(download.status).toBe(200);
  return { job: done.body, archive: Buffer.from(await download.arrayBuffer()) };
}

/** Uploads an archive into the admin's workspace through the presigned flow and answers the finished import. */
async function importArchive(admin: ApiClient, archive: Buffer): Promise<Record<string, unknown>> {
  const grant = await admin.post('/api/workspace/imports', { size: archive.byteLength });
  expect(grant.status).toBe(201);
  const put = await fetch(grant.body.upload_url as string, { method: 'PUT', body: archive });
  expect(put.status).toBe(200);
  const started = await admin.post(`/api/workspace/imports/${grant.body.id}/start`);
  expect(started.status).toBe(202);
  const done = await eventually(
    () => admin.get(`/api/workspace/imports/${grant.body.id}`),
    (response) => ['completed', 'failed'].includes(response.body.status),
    60_000,
    'the import finished',
  );
  return done.body;
}

/** What must be equal across an export and an import: every document's record, text and file; labels, sources, rules. */
async function snapshot(admin: ApiClient) {
  const listed = (await admin.get('/api/documents?per_page=100&sort=created_at&order=asc')).body.data as { id: string }[];
  const documents = [];
  for (const { id } of listed) {
    const { body } = await admin.get(`/api/documents/${id}`);
    const file = await admin.bytes(`/api/documents/${id}/download`);
    const { updated_at: _updated, ...record } = body;
    documents.push({ ...record, file: file.bytes.toString('base64') });
  }
  const labels = (await admin.get('/api/labels')).body;
  const sources = ((await admin.get('/api/sources')).body.sources as Record<string, unknown>[]).map(({ id, name, type, url, username, sync_interval, recursive, file_patterns }) => ({
    id,
    name,
    type,
    url,
    username,
    sync_interval,
    recursive,
    file_patterns,
  }));
  const rules = ((await admin.get('/api/rules')).body.rules as Record<string, unknown>[]).map(({ id, name, match, when, add_labels, order }) => ({ id, name, match, when, add_labels, order }));
  return { documents, labels, sources, rules };
}

/** The archive with one byte of one original file changed (the same size), repacked: its checksums no longer hold. */
async function tampered(archive: Buffer): Promise<Buffer> {
  const entries: { name: string; bytes: Buffer }[] = [];
  for await (const entry of tarGzipCodec.read((async function* () {
    yield archive;
  })())) {
    const parts: Uint8Array[] = [];
    for await (const chunk of entry.body) parts.push(chunk);
    entries.push({ name: entry.name, bytes: Buffer.concat(parts) });
  }
  const file = entries.find((entry) => entry.name.startsWith('files/'))!;
  file.bytes[file.bytes.byteLength - 1] = file.bytes[file.bytes.byteLength - 1]! ^ 0xff;
  const out: Uint8Array[] = [];
  for await (const chunk of tarGzipCodec.write(async (sink) => {
    for (const entry of entries) await sink.add(entry.name, entry.bytes.byteLength, entry.bytes);
  }))
    out.push(chunk);
  return Buffer.concat(out);
}

describe('workspace export and import (issue 37)', () => {
  let exporter: ApiClient;
  let exporterName: string;
  let archive: Buffer;
  let dav: RunningDav;
  let davRoot: string;

  beforeAll(async () => {
    const signedUp = await anonymous.signUp('exporter');
    exporter = signedUp.client;
    exporterName = signedUp.user.username;
    const invoices = (await exporter.post('/api/labels', { name: 'invoices', color: '#112233', description: 'Money in' })).body.id as string;
    const photos = (await exporter.post('/api/labels', { name: 'photos', color: '#445566' })).body.id as string;
    const pdf = await exporter.uploadDocument('invoice-42.pdf', textPdf([['Invoice number 42, due in thirty days.']]), { labels: invoices });
    await exporter.uploadDocument('holiday.png', pngImage(8, 8), { ocr_enabled: 'false', title: 'Holiday' });
    await exporter.post(`/api/labels/${photos}/assign`, { document_ids: [pdf] });
    await exporter.put(`/api/documents/${pdf}`, { metadata: { customer: 'ACME', amount: 12.5 } });
    await eventually(() => exporter.get(`/api/documents/${pdf}`), (response) => response.body.status === 'completed', 60_000, 'the PDF read');
    await exporter.post('/api/rules', { name: 'invoices', match: { field: 'content', algorithm: 'any', pattern: 'invoice' }, add_labels: [invoices] });
    davRoot = await mkdtemp(join(tmpdir(), 'portability-dav-'));
    dav = await startRcloneDav({ root: davRoot, username: 'sync', password: 'correct horse battery' });
    const source = await exporter.post('/api/sources', {
      name: 'Scanner share',
      type: 'webdav',
      url: dav.url,
      username: 'sync',
      password: 'correct horse battery',
      sync_interval: 3600,
      recursive: true,
      file_patterns: ['*.pdf'],
    });
    expect(source.status).toBe(201);
    ({ archive } = await exportWorkspace(exporter));
  }, 180_000);

  afterAll(async () => {
    await dav?.stop();
    if (davRoot) await rm(davRoot, { recursive: true, force: true });
  });

  it('imports the archive into another, empty workspace with the same documents, files, labels, texts, sources and rules', async () => {
    const { client: importer } = await anonymous.signUp('importer');

    const result = await importArchive(importer, archive);

    expect(result).toMatchObject({ status: 'completed', failure_reason: null, result: { documents: 2, files: 2, labels: 2, sources: 1, rules: 1, webhooks_not_imported: 0 } });
    expect((result['result'] as { users_not_imported: { username: string }[] }).users_not_imported.map((user) => user.username)).toEqual([exporterName]);
    expect(await snapshot(importer)).toEqual(await snapshot(exporter));
  });

  it('holds a manifest counting every collection, the audit log, and no secret', async () => {
    const entries = new Map<string, string>();
    for await (const entry of tarGzipCodec.read((async function* () {
      yield archive;
    })())) {
      const parts: Uint8Array[] = [];
      for await (const chunk of entry.body) parts.push(chunk);
      if (!entry.name.startsWith('files/')) entries.set(entry.name, Buffer.concat(parts).toString('utf8'));
    }
    const manifest = JSON.parse(entries.get('manifest.json')!);
    const text = [...entries.values()].join('\n');

    expect(manifest).toMatchObject({ format: 'docservice-workspace-archive', format_version: 1, counts: { documents: 2, files: 2, labels: 2, sources: 1, rules: 1, users: 1, webhooks: 0 } });
    expect(manifest.counts.audit).toBeGreaterThan(0);
    expect(['password_hash', 'password_sealed', 'correct horse battery', 'token_version'].filter((secret) => text.includes(secret))).toEqual([]);
  });

  it('imports sources disabled and without a password', async () => {
    const { client: importer } = await anonymous.signUp('importer');

    await importArchive(importer, archive);

    expect((await importer.get('/api/sources')).body.sources).toMatchObject([{ name: 'Scanner share', enabled: false }]);
  });

  it("completes with a download link valid for an hour and the archive's SHA-256", async () => {
    const { job } = await exportWorkspace(exporter);

    const expiresIn = Date.parse(job['download_expires_at'] as string) - Date.now();
    expect({ percent: (job['progress'] as { percent: number }).percent, sha256: job['sha256'], validForAboutAnHour: expiresIn > 3_500_000 && expiresIn <= 3_600_000 }).toEqual({
      percent: 100,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      validForAboutAnHour: true,
    });
  });

  it('tells the admin who asked how the export goes over the WebSocket, up to completed', async () => {
    const channel = await ChannelClient.authenticated(baseUrl, exporter.token!);
    try {
      const started = await exporter.post('/api/workspace/exports');

      const completed = await channel.next((m) => m.type === 'export_progress' && (m.data as { status?: string }).status === 'completed', 60_000);

      expect(completed.data).toEqual({ export_id: started.body.id, status: 'completed', progress: 100, documents_done: 2, documents_total: 2 });
    } finally {
      await channel.close();
    }
  });

  it('refuses an import into a workspace that is not empty', async () => {
    const response = await exporter.post('/api/workspace/imports', { size: archive.byteLength });

    expect(response.status).toBe(409);
    expect(response.body.error.details).toMatchObject({ reason: 'workspace_not_empty' });
  });

  it('refuses an archive whose checksums do not hold, and keeps nothing of it', async () => {
    const { client: importer } = await anonymous.signUp('importer');

    const result = await importArchive(importer, await tampered(archive));

    expect(result).toMatchObject({ status: 'failed', result: null });
    expect(result['failure_reason']).toMatch(/^checksum_mismatch: files\//);
    expect({ documents: (await importer.get('/api/documents')).body.pagination.total, labels: (await importer.get('/api/labels')).body.labels }).toEqual({ documents: 0, labels: [] });
  });

  it('refuses bytes that are not an archive of the format', async () => {
    const { client: importer } = await anonymous.signUp('importer');

    const result = await importArchive(importer, Buffer.from('this is not a tar.gz archive at all'));

    expect(result).toMatchObject({ status: 'failed' });
    expect(result['failure_reason']).toMatch(/^invalid_format: /);
  });

  it('refuses starting an import before its archive was uploaded, naming the archive', async () => {
    const { client: importer } = await anonymous.signUp('importer');
    const grant = await importer.post('/api/workspace/imports', { size: 1000 });

    const response = await importer.post(`/api/workspace/imports/${grant.body.id}/start`);

    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ field: 'archive' });
  });

  it('answers exports and imports to the workspace\'s admins only', async () => {
    const { client: editor } = await exporter.addMember('editor');

    const answers = [
      (await editor.post('/api/workspace/exports')).status,
      (await editor.get('/api/workspace/exports/00000000-0000-4000-8000-000000000000')).status,
      (await editor.post('/api/workspace/imports', { size: 10 })).status,
    ];

    expect(answers).toEqual([403, 403, 403]);
  });

  it("answers another workspace's export as unknown", async () => {
    const started = await exporter.post('/api/workspace/exports');
    const { client: stranger } = await anonymous.signUp('stranger');

    const response = await stranger.get(`/api/workspace/exports/${started.body.id}`);

    expect(response.status).toBe(404);
  });
});
