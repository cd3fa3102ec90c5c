import { describe, expect, it } from 'vitest';
import { compileFilePatterns } from '../../../../shared/domain/sources/file-patterns';
import type { DirectorySummary, RememberedDirectory, RememberedFile, SyncStateStore, SyncWorkItem } from '../../../../shared/domain/sources/ports';
import type { RemoteEntry, RemoteFolder, RemoteListing } from '../../../../shared/domain/sources/remote-folder';
import { differs, sameEtag, walkDirectory, type DirectoryStep } from '../../../../shared/domain/sources/sync-directory';

const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-01-02T00:00:00.000Z';

const remembered = (overrides: Partial<RememberedFile> = {}): RememberedFile => ({
  etag: '"a"',
  size: 10,
  last_modified: T1,
  document_id: crypto.randomUUID(),
  ...overrides,
});

const remote = (overrides: Partial<RemoteEntry> = {}): RemoteEntry => ({
  path: 'f.pdf',
  kind: 'file',
  etag: '"a"',
  size: 10,
  lastModified: T1,
  ...overrides,
});

describe('sameEtag', () => {
  it('treats a weak and a strong ETag of the same value as the same', () => {
    expect(sameEtag('W/"abc"', '"abc"')).toBe(true);
  });

  it('treats different values as different, whatever their strength', () => {
    expect(sameEtag('"abc"', '"abd"')).toBe(false);
    expect(sameEtag('W/"abc"', 'W/"abd"')).toBe(false);
  });

  it('never treats a missing ETag as the same as anything', () => {
    expect(sameEtag(null, null)).toBe(false);
    expect(sameEtag('"abc"', null)).toBe(false);
  });
});

describe('differs', () => {
  it('finds a file unchanged when its ETag flipped from weak to strong', () => {
    expect(differs(remembered({ etag: 'W/"a"' }), remote({ etag: '"a"' }))).toBe(false);
  });

  it('finds a file changed when its ETag changed, even with the same size and time', () => {
    expect(differs(remembered({ etag: '"a"' }), remote({ etag: '"b"' }))).toBe(true);
  });

  it('trusts the ETag over a changed last-modified when both have one', () => {
    expect(differs(remembered({ etag: '"a"' }), remote({ etag: '"a"', lastModified: T2 }))).toBe(false);
  });

  it('compares size and last-modified when the server sends no ETag', () => {
    expect(differs(remembered({ etag: null }), remote({ etag: null }))).toBe(false);
    expect(differs(remembered({ etag: null }), remote({ etag: null, size: 11 }))).toBe(true);
    expect(differs(remembered({ etag: null }), remote({ etag: null, lastModified: T2 }))).toBe(true);
  });

  it('compares size and last-modified when only the remembered file had an ETag', () => {
    expect(differs(remembered({ etag: '"a"' }), remote({ etag: null, size: 11 }))).toBe(true);
  });
});

/** An in-memory remote tree: each directory's ETag and its children, as a listing would give them. */
type Tree = Record<string, { etag: string | null; children: RemoteEntry[] }>;

/** A RemoteFolder over an in-memory tree, recording which directories were listed. */
function folderOf(tree: Tree): RemoteFolder & { listed: string[] } {
  const listed: string[] = [];
  return {
    listed,
    async list(path: string): Promise<RemoteListing> {
      listed.push(path);
      const directory = tree[path];
      if (!directory) throw new Error(`no directory ${path}`);
      return { directory: { path, kind: 'directory', etag: directory.etag, size: null, lastModified: null }, children: directory.children };
    },
    async read() {
      throw new Error('a walk reads no file');
    },
  };
}

const file = (path: string, etag: string | null = `"${path}"`): RemoteEntry => ({ path, kind: 'file', etag, size: 10, lastModified: T1 });
const dir = (path: string, etag: string | null = `"${path}/"`): RemoteEntry => ({ path, kind: 'directory', etag, size: null, lastModified: null });

/** A SyncStateStore in memory, with the same meaning as the DynamoDB one. */
class MemorySyncState implements SyncStateStore {
  readonly directories = new Map<string, { etag: string | null; directories: Map<string, string | null>; summaries: Map<string, DirectorySummary> }>();
  readonly files = new Map<string, RememberedFile>();
  readonly workItems = new Map<string, SyncWorkItem>();

  async directory(_sourceId: string, path: string): Promise<RememberedDirectory | null> {
    const self = this.directories.get(path);
    if (!self) return null;
    const files = new Map([...this.files].filter(([p]) => parentOf(p) === path).map(([p, f]) => [nameOf(p), f]));
    return { etag: self.etag, files, directories: new Map(self.directories), summaries: new Map(self.summaries) };
  }
  async saveDirectory(_sourceId: string, path: string, etag: string | null, directories: Map<string, string | null>) {
    const before = this.directories.get(path);
    const summaries = new Map([...(before?.summaries ?? [])].filter(([name]) => directories.get(name) !== undefined && directories.get(name) === before?.directories.get(name)));
    this.directories.set(path, { etag, directories: new Map(directories), summaries });
  }
  async summarize(_sourceId: string, path: string, etag: string | null, summary: DirectorySummary) {
    const parent = this.directories.get(parentOf(path));
    if (!path || !parent) return;
    parent.directories.set(nameOf(path), etag);
    parent.summaries.set(nameOf(path), summary);
  }
  async saveFile(_sourceId: string, path: string, file: RememberedFile) {
    this.files.set(path, file);
  }
  async distrustDirectory(_sourceId: string, path: string) {
    const self = this.directories.get(path);
    if (self) self.etag = null;
  }
  async forgetFiles(_sourceId: string, paths: string[]) {
    for (const path of paths) this.files.delete(path);
  }
  async addWork(_jobId: string, items: SyncWorkItem[]) {
    for (const item of items) if (!this.workItems.has(keyOf(item))) this.workItems.set(keyOf(item), item);
  }
  async work(_jobId: string, kind: SyncWorkItem['kind'], limit: number) {
    return [...this.workItems.values()].filter((item) => item.kind === kind).sort((a, b) => a.path.localeCompare(b.path)).slice(0, limit);
  }
  async workDone(_jobId: string, item: SyncWorkItem) {
    this.workItems.delete(keyOf(item));
  }
  async forget() {
    this.directories.clear();
    this.files.clear();
  }

  queued(kind: SyncWorkItem['kind']) {
    return [...this.workItems.values()].filter((item) => item.kind === kind).map((item) => item.path).sort();
  }
}

const keyOf = (item: SyncWorkItem) => `${item.kind}#${item.path}`;
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

const step = (overrides: Partial<DirectoryStep> = {}): DirectoryStep => ({
  sourceId: 'source',
  jobId: 'job',
  recursive: true,
  fullWalk: false,
  patterns: compileFilePatterns([]),
  ...overrides,
});

const walk = (state: MemorySyncState, folder: RemoteFolder, path: string, etag: string | null, overrides: Partial<DirectoryStep> = {}) =>
  walkDirectory({ syncState: state }, folder, step(overrides), { kind: 'directory', path, etag });

describe('walkDirectory', () => {
  it('queues every file and subdirectory on the first walk', async () => {
    const state = new MemorySyncState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), file('b.pdf'), dir('sub')] } });

    const outcome = await walk(state, folder, '', null);

    expect(state.queued('file')).toEqual(['a.pdf', 'b.pdf']);
    expect(state.queued('directory')).toEqual(['sub']);
    expect(outcome).toMatchObject({ total: 2, counts: { unchanged: 0, skipped: 0 }, listed: true });
  });

  it('gives each new file a fresh document id and nothing to replace', async () => {
    const state = new MemorySyncState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), file('b.pdf')] } });

    await walk(state, folder, '', null);

    const [a, b] = (await state.work('job', 'file', 10)) as Array<Extract<SyncWorkItem, { kind: 'file' }>>;
    expect(a!.replaces).toBeNull();
    expect(a!.document_id).not.toEqual(b!.document_id);
  });

  it('remembers the listed directory with its ETag and subdirectories', async () => {
    const state = new MemorySyncState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), dir('sub', '"s"')] } });

    await walk(state, folder, '', null);

    expect(state.directories.get('')).toEqual({ etag: '"root"', directories: new Map([['sub', '"s"']]), summaries: new Map() });
  });

  it('does not list a leaf subdirectory whose ETag is trusted, and counts its remembered files unchanged', async () => {
    const state = new MemorySyncState();
    await state.saveDirectory('source', '', '"root"', new Map([['leaf', '"L"']]));
    await state.summarize('source', 'leaf', '"L"', { files: 2, directories: 0 });
    const folder = folderOf({ '': { etag: '"root"', children: [dir('leaf', 'W/"L"')] } });

    const outcome = await walk(state, folder, '', null);

    expect(folder.listed).toEqual(['']);
    expect(outcome).toEqual({ total: 2, counts: { unchanged: 2 }, skipped: [], listed: true });
    expect(state.queued('directory')).toEqual([]);
  });

  it('lists a leaf subdirectory whose ETag moved', async () => {
    const state = new MemorySyncState();
    await state.saveDirectory('source', '', '"root"', new Map([['leaf', '"L"']]));
    await state.summarize('source', 'leaf', '"L"', { files: 2, directories: 0 });
    const folder = folderOf({ '': { etag: '"root"', children: [dir('leaf', '"L2"')] } });

    await walk(state, folder, '', null);

    expect(state.queued('directory')).toEqual(['leaf']);
  });

  it('lists a trusted directory with subdirectories, queues them, and does not compare its files', async () => {
    const state = new MemorySyncState();
    await state.saveDirectory('source', '', '"root"', new Map([['sub', '"s"']]));
    await state.saveFile('source', 'a.pdf', remembered({ etag: '"old"' }));
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf', '"new"'), dir('sub', '"s"')] } });

    const outcome = await walk(state, folder, '', '"root"');

    expect(folder.listed).toEqual(['']);
    expect(state.queued('directory')).toEqual(['sub']);
    expect(state.queued('file')).toEqual([]);
    expect(outcome).toMatchObject({ total: 1, counts: { unchanged: 1 }, listed: true });
  });

  it('compares every file of a trusted directory on a full walk', async () => {
    const state = new MemorySyncState();
    await state.saveDirectory('source', 'leaf', '"L"', new Map());
    await state.saveFile('source', 'leaf/a.pdf', remembered({ etag: '"old"' }));
    const folder = folderOf({ leaf: { etag: '"L"', children: [file('leaf/a.pdf', '"new"')] } });

    await walk(state, folder, 'leaf', '"L"', { fullWalk: true });

    expect(folder.listed).toEqual(['leaf']);
    expect(state.queued('file')).toEqual(['leaf/a.pdf']);
  });

  it('queues a changed file to replace the document it became', async () => {
    const state = new MemorySyncState();
    const before = remembered({ etag: '"v1"' });
    await state.saveDirectory('source', '', '"root-1"', new Map());
    await state.saveFile('source', 'a.pdf', before);
    const folder = folderOf({ '': { etag: '"root-2"', children: [file('a.pdf', '"v2"')] } });

    await walk(state, folder, '', '"root-2"');

    expect(await state.work('job', 'file', 10)).toEqual([
      { kind: 'file', path: 'a.pdf', etag: '"v2"', size: 10, last_modified: T1, document_id: before.document_id, replaces: before.document_id },
    ]);
  });

  it('counts an unchanged file of a changed directory as unchanged, without queueing it', async () => {
    const state = new MemorySyncState();
    await state.saveDirectory('source', '', '"root-1"', new Map());
    await state.saveFile('source', 'a.pdf', remembered({ etag: '"a"' }));
    const folder = folderOf({ '': { etag: '"root-2"', children: [file('a.pdf', '"a"'), file('new.pdf')] } });

    const outcome = await walk(state, folder, '', '"root-2"');

    expect(state.queued('file')).toEqual(['new.pdf']);
    expect(outcome).toMatchObject({ total: 2, counts: { unchanged: 1 } });
  });

  it('forgets files that disappeared from the server', async () => {
    const state = new MemorySyncState();
    await state.saveDirectory('source', '', '"root-1"', new Map());
    await state.saveFile('source', 'kept.pdf', remembered({ etag: '"k"' }));
    await state.saveFile('source', 'gone.pdf', remembered());
    const folder = folderOf({ '': { etag: '"root-2"', children: [file('kept.pdf', '"k"')] } });

    await walk(state, folder, '', '"root-2"');

    expect([...state.files.keys()]).toEqual(['kept.pdf']);
  });

  it('ignores subdirectories when the source is not recursive', async () => {
    const state = new MemorySyncState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), dir('sub')] } });

    await walk(state, folder, '', null, { recursive: false });

    expect(state.queued('directory')).toEqual([]);
    expect(state.directories.get('')?.directories).toEqual(new Map());
  });

  it('queues only the files the patterns match, and counts only those', async () => {
    const state = new MemorySyncState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), file('b.txt'), file('c.PDF')] } });

    const outcome = await walk(state, folder, '', null, { patterns: compileFilePatterns(['*.pdf']) });

    expect(state.queued('file')).toEqual(['a.pdf', 'c.PDF']);
    expect(outcome.total).toBe(2);
  });

  it('skips a file whose path is too long, and says why', async () => {
    const state = new MemorySyncState();
    const long = `${'x'.repeat(901)}.pdf`;
    const folder = folderOf({ '': { etag: '"root"', children: [file(long)] } });

    const outcome = await walk(state, folder, '', null);

    expect(state.queued('file')).toEqual([]);
    expect(outcome).toMatchObject({ total: 1, counts: { skipped: 1 }, skipped: [{ path: long, reason: 'the path is too long' }] });
  });
});
