import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pdfDocument, pngImage } from '../support/fixtures';
import { ChannelClient } from '../support/ws-client';
import { startRecordingProxy, type RecordingProxy } from '../support/webdav-proxy';
import { startApacheDav, startRcloneDav, type RunningDav } from '../support/webdav-servers';
import { deleteFile, putFile, writeSourceTree, type SourceTree } from '../support/webdav-tree';
import { finishedSync, type SyncStatus } from '../support/sync-status';

const SERVERS = [
  { name: 'Apache httpd mod_dav', start: startApacheDav },
  { name: 'rclone serve webdav', start: startRcloneDav },
] as const;

describe.each(SERVERS)('sources against $name', ({ start }) => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;
  let root: string;
  let tree: SourceTree;
  let dav: RunningDav;
  let proxy: RecordingProxy;
  let sourceId: string;
  let firstSync: SyncStatus;
  const credentials = { username: 'sync', password: 'correct horse battery' };
  const documentsOfSource = async () => (await editor.get(`/api/documents?source_id=${sourceId}&per_page=100`)).body;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'source-tree-'));
    tree = await writeSourceTree(root);
    dav = await start({ root, ...credentials });
    proxy = await startRecordingProxy(dav.url);
    // A workspace of its own: the counts below are this source's alone.
    editor = (await anonymous.signUp('sources')).client;
    const created = await editor.post('/api/sources', {
      name: 'Scanner share',
      type: 'webdav',
      url: proxy.url,
      ...credentials,
      sync_interval: 3600,
      recursive: true,
      file_patterns: ['*.pdf', '*.png'],
    });
    expect(created.status).toBe(201);
    sourceId = created.body.id;
    firstSync = await finishedSync(editor, sourceId);
  });

  afterAll(async () => {
    await proxy?.stop();
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('creates the source without ever returning its password, and starts its first sync at once', async () => {
    const listed = (await editor.get('/api/sources')).body.sources;

    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: sourceId, name: 'Scanner share', type: 'webdav', status: 'active', recursive: true, file_patterns: ['*.pdf', '*.png'] });
    expect(listed[0].last_sync).toEqual(expect.any(String));
    expect(listed[0].next_sync).toEqual(expect.any(String));
    expect(JSON.stringify(listed)).not.toContain(credentials.password);
  });

  it('makes a document of each supported file on the first sync and reports the refused ones', async () => {
    const expected = tree.files.filter((file) => file.becomes_document);

    expect(firstSync).toMatchObject({ state: 'completed', new: expected.length, skipped: 2, failed: 0, processed: expected.length + 2, total: expected.length + 2 });
    expect(firstSync.errors.map((error: { path: string }) => error.path).sort()).toEqual(['scans/2024/fake.pdf', 'scans/2025/empty.pdf']);
    const documents = await documentsOfSource();
    expect(documents.pagination.total).toBe(expected.length);
    expect(documents.data.map((document: { filename: string }) => document.filename).sort()).toEqual(expected.map((file) => file.path.split('/').pop()).sort());
  });

  it('counts the documents of the source exactly', async () => {
    const [source] = (await editor.get('/api/sources')).body.sources;

    expect(source.document_count).toBe(tree.files.filter((file) => file.becomes_document).length);
  });

  it('lists with Depth: 1 only, which a server refusing Depth: infinity serves', () => {
    const propfinds = proxy.requests().filter((request) => request.method === 'PROPFIND');

    expect(propfinds.length).toBeGreaterThan(0);
    expect(propfinds.every((request) => request.depth === '1')).toBe(true);
  });

  it('downloads nothing on a resync when nothing changed', async () => {
    proxy.clear();

    const started = await editor.post(`/api/sources/${sourceId}/sync`);
    const status = await finishedSync(editor, sourceId, started.body.job_id);

    expect(started.status).toBe(202);
    expect(started.body).toEqual({ message: expect.any(String), job_id: expect.any(String) });
    expect(status).toMatchObject({ state: 'completed', new: 0, changed: 0, failed: 0 });
    expect(proxy.gets()).toBe(0);
    expect(proxy.propfinds()).toBeLessThanOrEqual(tree.directories.length + 1);
  });

  it('tells the editor who started a sync that it finished, with the counts', async () => {
    const notifications = (await editor.get('/api/notifications')).body.notifications;

    expect(notifications).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'source_sync_completed', data: { source_id: sourceId, job_id: expect.any(String) } })]),
    );
  });

  it('fetches only the added and changed files after a change, and keeps the documents of deleted files', async () => {
    const before = (await documentsOfSource()).pagination.total;
    await putFile(dav, 'inbox/added.pdf', pdfDocument('A new scan arrived'));
    await putFile(dav, 'scans/2025/deep/contract.pdf', pdfDocument('The contract, second version, signed'));
    await deleteFile(dav, 'inbox/invoice-1001.pdf');
    proxy.clear();

    const started = await editor.post(`/api/sources/${sourceId}/sync`);
    const status = await finishedSync(editor, sourceId, started.body.job_id);

    expect(status).toMatchObject({ state: 'completed', new: 1, changed: 1, failed: 0 });
    expect(proxy.gets()).toBe(2);
    expect((await documentsOfSource()).pagination.total).toBe(before + 1);
  });

  it('records a file whose bytes equal a document of the workspace as a duplicate, not a second document', async () => {
    const before = (await documentsOfSource()).pagination.total;
    const same = pdfDocument('The contract, second version, signed');
    await putFile(dav, 'inbox/contract-copy.pdf', same);

    const started = await editor.post(`/api/sources/${sourceId}/sync`);
    const status = await finishedSync(editor, sourceId, started.body.job_id);

    expect(status).toMatchObject({ state: 'completed', new: 0, duplicates: 1 });
    expect((await documentsOfSource()).pagination.total).toBe(before);
  });

  it('refuses a second sync of the source while one runs', async () => {
    proxy.hang();
    try {
      const first = await editor.post(`/api/sources/${sourceId}/sync`);
      const second = await editor.post(`/api/sources/${sourceId}/sync`);

      expect(first.status).toBe(202);
      expect(second.status).toBe(409);
      expect(second.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'sync_running', job_id: first.body.job_id } });
    } finally {
      proxy.resume();
    }
    await finishedSync(editor, sourceId);
  });
});

describe('sources: checks and failures', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;
  let root: string;
  let dav: RunningDav;
  let proxy: RecordingProxy;
  const credentials = { username: 'sync', password: 'correct horse battery' };
  const source = (overrides: Record<string, unknown> = {}) => ({ name: 'NAS', type: 'webdav', url: proxy.url, ...credentials, sync_interval: 3600, recursive: true, ...overrides });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'source-tree-'));
    await writeSourceTree(root);
    dav = await startApacheDav({ root, ...credentials });
    proxy = await startRecordingProxy(dav.url);
    editor = (await anonymous.signUp('sources-checks')).client;
  });

  afterAll(async () => {
    await proxy?.stop();
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('refuses a wrong password with 400 on the password field', async () => {
    const response = await editor.post('/api/sources', source({ password: 'wrong' }));

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'password' } });
    expect(JSON.stringify(response.body)).not.toContain('wrong');
  });

  it('refuses an address nothing answers on with 400 on the url field', async () => {
    const response = await editor.post('/api/sources', source({ url: 'http://127.0.0.1:9/dav/' }));

    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ field: 'url', reason: expect.stringContaining('reached') });
  });

  it('refuses a URL that names a file rather than a folder', async () => {
    const response = await editor.post('/api/sources', source({ url: `${proxy.url}inbox/notes.txt` }));

    expect(response.status).toBe(400);
    expect(response.body.error.details.field).toBe('url');
  });

  it.each([
    ['an interval below a minute', { sync_interval: 59 }, 'sync_interval'],
    ['a glob with an unclosed class', { file_patterns: ['*.[pdf'] }, 'file_patterns.0'],
    ['a URL of another scheme', { url: 'ftp://127.0.0.1/dav/' }, 'url'],
    ['another type', { type: 'local_folder' }, 'type'],
  ])('refuses %s', async (_case, overrides, field) => {
    const response = await editor.post('/api/sources', source(overrides));

    expect(response.status).toBe(400);
    expect(response.body.error.details.field).toBe(field);
  });

  it('changes any subset of fields, checking new credentials against the server', async () => {
    const created = (await editor.post('/api/sources', source({ name: 'Before' }))).body;
    await finishedSync(editor, created.id);

    const renamed = await editor.put(`/api/sources/${created.id}`, { name: 'After', sync_interval: 7200, enabled: false });
    const badPassword = await editor.put(`/api/sources/${created.id}`, { password: 'nope' });

    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'After', sync_interval: 7200, enabled: false, status: 'disabled', next_sync: null });
    expect(badPassword.status).toBe(400);
    expect(badPassword.body.error.details.field).toBe('password');
  });

  it('keeps the documents of a deleted source', async () => {
    // A folder of its own: the tree's other files are this workspace's documents already (they would be duplicates).
    await putFile(dav, 'solo/only-here.png', pngImage(37, 11));
    const created = (await editor.post('/api/sources', source({ name: 'Going away', url: `${proxy.url}solo/` }))).body;
    await finishedSync(editor, created.id);
    const documents = (await editor.get(`/api/documents?source_id=${created.id}`)).body.pagination.total;

    const deleted = await editor.delete(`/api/sources/${created.id}`);

    expect(documents).toBe(1);
    expect(deleted.status).toBe(204);
    expect((await editor.get(`/api/sources/${created.id}/sync-status`)).status).toBe(404);
    expect((await editor.get(`/api/documents?source_id=${created.id}`)).body.pagination.total).toBe(documents);
  });

  it('counts a file the server refuses (403) as failed, and finishes the sync', async () => {
    const created = (await editor.post('/api/sources', source({ name: 'Locked file', file_patterns: ['*.png'] }))).body;
    await finishedSync(editor, created.id);
    await putFile(dav, 'scans/2024/locked.png', pngImage(24, 24));
    await chmod(join(root, 'scans/2024/locked.png'), 0o000);

    const started = await editor.post(`/api/sources/${created.id}/sync`);
    const status = await finishedSync(editor, created.id, started.body.job_id);

    expect(status).toMatchObject({ state: 'completed', failed: 1 });
    expect(status.errors).toEqual([expect.objectContaining({ path: 'scans/2024/locked.png' })]);
  });

  it('finishes a sync whose server stops answering midway, reporting what it could not read', async () => {
    const created = (await editor.post('/api/sources', source({ name: 'Silent', file_patterns: ['*.png'] }))).body;
    await finishedSync(editor, created.id);
    await putFile(dav, 'scans/2024/late.png', pngImage(20, 20));
    // The root answers; what follows hangs mid-answer, each request until the runtime's 3 s timeout.
    proxy.hangAfter(1, 'mid-body');
    try {
      const started = await editor.post(`/api/sources/${created.id}/sync`);
      const status = await finishedSync(editor, created.id, started.body.job_id);

      expect(status.state).toBe('completed');
      expect(status.errors.length).toBeGreaterThan(0);
    } finally {
      proxy.resume();
    }
  });

  it('sends sync_progress events to the workspace while a sync runs', async () => {
    const channel = await ChannelClient.authenticated(inject('baseUrl'), editor.token!);
    channel.send({ type: 'subscribe', events: ['sync_progress'] });
    const created = (await editor.post('/api/sources', source({ name: 'Watched' }))).body;

    const event = await channel.next((message) => message.type === 'sync_progress' && message.data['source_id'] === created.id, 30_000);

    expect(event.data).toEqual({ source_id: created.id, processed: expect.any(Number), total: expect.any(Number), current_file: expect.any(String) });
    await finishedSync(editor, created.id);
  });

  it('refuses viewers, who may only read sources', async () => {
    const viewer = (await editor.addMember('viewer', 'sources-viewer')).client;

    expect((await viewer.post('/api/sources', source())).status).toBe(403);
    expect((await viewer.get('/api/sources')).status).toBe(200);
  });
});
