import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pdfDocument } from '../support/fixtures';
import { startRecordingProxy, type RecordingProxy } from '../support/webdav-proxy';
import { basicAuth, startApacheDav, startRcloneDav, type RunningDav } from '../support/webdav-servers';
import { davUrl, deleteFile, putFile, writeSourceTree, type SourceTree } from '../support/webdav-tree';

interface Entry {
  href: string;
  etag: string | null;
}

/** A PROPFIND (allprop) and the hrefs and getetags of its multistatus; enough XML reading for a harness test. */
async function propfind(dav: RunningDav, path: string, depth: string, password = dav.password) {
  const response = await fetch(davUrl(dav, path), {
    method: 'PROPFIND',
    headers: { depth, authorization: basicAuth({ username: dav.username, password }) },
  });
  const body = await response.text();
  const entries: Entry[] = body
    .split(/<(?:\w+:)?response[\s>]/)
    .slice(1)
    .map((part) => ({
      href: /<(?:\w+:)?href>([^<]*)</.exec(part)![1]!,
      etag: /<(?:\w+:)?getetag>([^<]*)</.exec(part)?.[1]?.replace(/&quot;/g, '"') ?? null,
    }));
  return { status: response.status, body, entries };
}

const etagOf = async (dav: RunningDav, path: string): Promise<string | null> =>
  (await propfind(dav, path, '0')).entries[0]!.etag?.replace(/^W\//, '') ?? null;

/** Whether something accepts connections on the URL's port. */
const listening = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const SERVERS = [
  ['Apache httpd (mod_dav)', startApacheDav],
  ['rclone serve webdav', startRcloneDav],
] as const;

describe.each(SERVERS)('%s as a test WebDAV server', (_name, start) => {
  let root: string;
  let tree: SourceTree;
  let dav: RunningDav;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'docservice-dav-root-'));
    tree = await writeSourceTree(root);
    dav = await start({ root, username: 'sync', password: 'correct horse' });
  });

  afterAll(async () => {
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('lists a collection’s members with PROPFIND Depth 1, as percent-encoded path-only hrefs under /dav/', async () => {
    const listing = await propfind(dav, 'inbox/', '1');

    // Apache writes %c3%a4, rclone %C3%A4: hrefs are compared decoded.
    expect(listing.status).toBe(207);
    expect(listing.entries.map((entry) => decodeURIComponent(entry.href)).sort()).toEqual([
      '/dav/inbox/',
      '/dav/inbox/.DS_Store',
      '/dav/inbox/Quittung März 2024.pdf',
      '/dav/inbox/invoice-1001.pdf',
      '/dav/inbox/notes.txt',
    ]);
    expect(listing.entries.every((entry) => /^[!-~]+$/.test(entry.href))).toBe(true);
  });

  it('answers 401 to a wrong password', async () => {
    const listing = await propfind(dav, '', '1', 'wrong');

    expect(listing.status).toBe(401);
  });

  it('serves a file’s exact bytes with GET', async () => {
    const file = tree.files.find((entry) => entry.path === 'scans/2024/linn.png')!;

    const response = await fetch(davUrl(dav, file.path), { headers: { authorization: basicAuth(dav) } });
    const bytes = Buffer.from(await response.arrayBuffer());

    expect(response.status).toBe(200);
    expect(bytes.equals(await readFile(join(root, file.path)))).toBe(true);
  });

  it('writes and deletes files sent through it, as a WebDAV client changes the tree', async () => {
    await putFile(dav, 'new/sub/added.pdf', pdfDocument('Added later'));
    const added = (await readFile(join(root, 'new/sub/added.pdf'))).length;
    await deleteFile(dav, 'new/');

    expect(added).toBe(pdfDocument('Added later').length);
    expect((await propfind(dav, 'new/', '0')).status).toBe(404);
  });

  it('gives a file a new ETag when it is overwritten with as many bytes within the same second', async () => {
    await putFile(dav, 'same-size.txt', Buffer.from('AAAA'));
    const before = await etagOf(dav, 'same-size.txt');

    await putFile(dav, 'same-size.txt', Buffer.from('BBBB'));

    expect(await etagOf(dav, 'same-size.txt')).not.toBe(before);
  });

  it('records each request it answered, with its method, path, Depth and status', async () => {
    await propfind(dav, 'scans/', '1');

    await expect.poll(async () => (await dav.requestLog()).at(-1)).toEqual({ method: 'PROPFIND', path: '/dav/scans/', depth: '1', status: 207 });
  });

  it('stops its processes and frees its port', async () => {
    const other = await start({ root, username: 'u', password: 'p' });

    await other.stop();

    expect(await listening(other.url)).toBe(false);
  });
});

describe('Apache httpd’s Depth: infinity and collection ETags', () => {
  let root: string;
  let dav: RunningDav;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'docservice-dav-root-'));
    await writeSourceTree(root);
    dav = await startApacheDav({ root, username: 'sync', password: 'secret' });
  });

  afterAll(async () => {
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('refuses PROPFIND Depth: infinity with 403 by default', async () => {
    const listing = await propfind(dav, '', 'infinity');

    expect(listing.status).toBe(403);
    expect(listing.body).toContain('Depth of "infinity" are not allowed');
  });

  it('answers PROPFIND Depth: infinity with the whole tree when started with depthInfinity', async () => {
    const open = await startApacheDav({ root, username: 'sync', password: 'secret', depthInfinity: true });
    const listing = await propfind(open, '', 'infinity').finally(() => open.stop());

    expect(listing.status).toBe(207);
    expect(listing.entries.map((entry) => entry.href)).toContain('/dav/scans/2025/deep/contract.pdf');
  });

  it.each([
    ['a file is added', () => putFile(dav, 'inbox/added.pdf', pdfDocument('Added'))],
    ['a file is overwritten', () => putFile(dav, 'inbox/invoice-1001.pdf', pdfDocument('Invoice 1001, corrected'))],
    ['a file is deleted', () => deleteFile(dav, 'inbox/notes.txt')],
  ])('changes a collection’s ETag when %s in it', async (_change, change) => {
    const before = await etagOf(dav, 'inbox/');

    await change();

    expect(await etagOf(dav, 'inbox/')).not.toBe(before);
  });

  it('keeps a collection’s ETag when only a file in a sub-collection changes', async () => {
    const before = await etagOf(dav, 'scans/');

    await putFile(dav, 'scans/2024/added.png', Buffer.from('png'));

    expect(await etagOf(dav, 'scans/')).toBe(before);
  });
});

describe('rclone’s Depth: infinity and collection ETags', () => {
  let root: string;
  let dav: RunningDav;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'docservice-dav-root-'));
    await writeSourceTree(root);
    dav = await startRcloneDav({ root, username: 'sync', password: 'secret' });
  });

  afterAll(async () => {
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('answers PROPFIND Depth: infinity with the whole tree', async () => {
    const listing = await propfind(dav, '', 'infinity');

    expect(listing.status).toBe(207);
    expect(listing.entries.map((entry) => entry.href)).toContain('/dav/scans/2025/deep/contract.pdf');
  });

  it('gives collections no getetag, only files', async () => {
    const listing = await propfind(dav, 'scans/2024/', '1');

    expect(listing.entries.find((entry) => entry.href === '/dav/scans/2024/')?.etag).toBeNull();
    expect(listing.entries.find((entry) => entry.href === '/dav/scans/2024/linn.png')?.etag).toMatch(/^"[0-9a-f]+"$/);
  });
});

describe('the recording proxy in front of a WebDAV server', () => {
  let root: string;
  let dav: RunningDav;
  let proxy: RecordingProxy;
  const viaProxy = (): RunningDav => ({ ...dav, url: proxy.url });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'docservice-dav-root-'));
    await writeSourceTree(root);
    dav = await startApacheDav({ root, username: 'sync', password: 'secret' });
  });

  afterAll(async () => {
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
  });

  beforeEach(async () => {
    proxy = await startRecordingProxy(dav.url);
  });

  afterEach(async () => {
    await proxy.stop();
  });

  it('forwards requests and counts the PROPFINDs and GETs it forwarded', async () => {
    await propfind(viaProxy(), '', '1');
    await propfind(viaProxy(), 'inbox/', '1');
    const file = await fetch(davUrl(viaProxy(), 'inbox/invoice-1001.pdf'), { headers: { authorization: basicAuth(dav) } });
    await file.arrayBuffer();

    expect([proxy.propfinds(), proxy.gets(), file.status]).toEqual([2, 1, 200]);
    expect(proxy.requests()[1]).toEqual({ method: 'PROPFIND', path: '/dav/inbox/', depth: '1', status: 207 });
  });

  it('makes a client time out after hang(), and answers again after resume()', async () => {
    proxy.hang();
    const hung = fetch(davUrl(viaProxy(), ''), { method: 'PROPFIND', headers: { depth: '1', authorization: basicAuth(dav) }, signal: AbortSignal.timeout(300) });
    await expect(hung).rejects.toThrow(/timeout|aborted/i);

    proxy.resume();

    expect((await propfind(viaProxy(), '', '1')).status).toBe(207);
  });

  it('answers the first n requests after hangAfter(n), then hangs', async () => {
    proxy.hangAfter(1);
    const first = await propfind(viaProxy(), '', '1');

    const second = propfind(viaProxy(), 'inbox/', '1');
    const outcome = await Promise.race([second.then(() => 'answered', () => 'failed'), new Promise((r) => setTimeout(() => r('hung'), 300))]);

    expect([first.status, outcome]).toEqual([207, 'hung']);
  });

  it('stops a response in the middle of its body with hang("mid-body")', async () => {
    proxy.hang('mid-body');
    const response = await fetch(davUrl(viaProxy(), 'scans/2024/linn.png'), { headers: { authorization: basicAuth(dav) }, signal: AbortSignal.timeout(500) });

    await expect(response.arrayBuffer()).rejects.toThrow(/timeout|aborted/i);
    expect(response.status).toBe(200);
  });
});
