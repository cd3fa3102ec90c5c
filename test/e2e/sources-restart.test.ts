import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { startRecordingProxy, type RecordingProxy } from '../support/webdav-proxy';
import { startApacheDav, type RunningDav } from '../support/webdav-servers';

const FILES_PER_DIRECTORY = 10;
const DIRECTORIES = ['a', 'b', 'c'];
const FILE_COUNT = FILES_PER_DIRECTORY * DIRECTORIES.length;
/** How long each step may take, however loaded the machine: the test waits for states, not for a speed. */
const PATIENT_MS = 120_000;

describe('a sync whose runtime is killed midway', () => {
  let root: string;
  let dataDir: string;
  let dav: RunningDav;
  let proxy: RecordingProxy;
  let runtime: RuntimeProcess;
  const env = {
    ADMIN_USERNAME: 'restart-admin',
    ADMIN_PASSWORD: 'restart-admin-password',
    // Hung downloads stay hung until the kill, rather than failing first.
    SOURCE_REQUEST_TIMEOUT_SECONDS: '120',
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'source-restart-'));
    for (const directory of DIRECTORIES) {
      await mkdir(join(root, directory));
      // Each image of its own size: equal bytes would be duplicates, not documents.
      for (let i = 0; i < FILES_PER_DIRECTORY; i++) await writeFile(join(root, directory, `${directory}-scan-${i}.png`), pngImage(8 + i, 8 + DIRECTORIES.indexOf(directory)));
    }
    dav = await startApacheDav({ root, username: 'sync', password: 'sync-password' });
    proxy = await startRecordingProxy(dav.url);
    dataDir = await mkdtemp(join(tmpdir(), 'docservice-restart-'));
    runtime = await startRuntimeProcess({ dataDir, env });
  });

  afterAll(async () => {
    await runtime?.stop();
    await proxy?.stop();
    await dav?.stop();
    await Promise.all([root, dataDir].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('goes on where it was after a restart and stores no file twice', async () => {
    const admin = await new ApiClient(runtime.baseUrl).login(env.ADMIN_USERNAME, env.ADMIN_PASSWORD);
    // The check, the root and the three directories are listed, three files read; everything after hangs.
    proxy.hangAfter(2 + DIRECTORIES.length + 3);
    const source = (await admin.post('/api/sources', { name: 'Restarted', type: 'webdav', url: proxy.url, username: 'sync', password: 'sync-password' })).body;
    await expect.poll(async () => (await admin.get(`/api/sources/${source.id}/sync-status`)).body.processed, { timeout: PATIENT_MS }).toBeGreaterThanOrEqual(3);

    runtime.child.kill('SIGKILL');
    await runtime.stop();
    proxy.resume();
    runtime = await startRuntimeProcess({ dataDir, env });
    const restarted = new ApiClient(runtime.baseUrl, admin.token);
    await expect
      .poll(async () => (await restarted.get(`/api/sources/${source.id}/sync-status`)).body.state, { timeout: PATIENT_MS, interval: 500 })
      .toBe('completed');

    // The listing follows the table's change stream: it may show the last documents a moment after the sync ends.
    const listed = async () => (await restarted.get(`/api/documents?source_id=${source.id}&per_page=100`)).body;
    await expect.poll(async () => (await listed()).pagination.total, { timeout: PATIENT_MS, interval: 500 }).toBe(FILE_COUNT);
    const names = (await listed()).data.map((document: { filename: string }) => document.filename);
    expect(new Set(names).size).toBe(FILE_COUNT);
  }, 600_000);
});
