import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoSyncStateStore } from '../../../../shared/adapters/aws/dynamodb/sync-state-store';
import { compileFilePatterns } from '../../../../shared/domain/sources/file-patterns';
import type { RememberedFile, SyncWorkItem } from '../../../../shared/domain/sources/ports';
import type { RemoteEntry, RemoteFolder, RemoteListing } from '../../../../shared/domain/sources/remote-folder';
import { differs, sameEtag, walkDirectory, type DirectoryStep } from '../../../../shared/domain/sources/sync-directory';
import { freshTable } from '../../../support/aws-resources';

let table: Awaited<ReturnType<typeof freshTable>>;

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

/** The sync state of one source and job of its own, in the DynamoDB store, with what a test reads back. */
async function freshState() {
  const sourceId = crypto.randomUUID();
  const jobId = crypto.randomUUID();
  const store = new DynamoSyncStateStore(table.db, table.tableName, crypto.randomUUID());
  return {
    store,
    sourceId,
    jobId,
    /** The paths of the job's work of `kind` still to do. */
    queued: async (kind: SyncWorkItem['kind']) => (await store.work(jobId, kind, 100)).map((item) => item.path).sort(),
    remembered: (path: string) => store.directory(sourceId, path),
  };
}

type State = Awaited<ReturnType<typeof freshState>>;

const step = (state: State, overrides: Partial<DirectoryStep> = {}): DirectoryStep => ({
  sourceId: state.sourceId,
  jobId: state.jobId,
  recursive: true,
  fullWalk: false,
  patterns: compileFilePatterns([]),
  ...overrides,
});

const walk = (state: State, folder: RemoteFolder, path: string, etag: string | null, overrides: Partial<DirectoryStep> = {}) =>
  walkDirectory({ syncState: state.store }, folder, step(state, overrides), { kind: 'directory', path, etag });

/**
 * A directory's step of a sync, its state in the DynamoDB sync-state store; the server's listings come from a
 * tree the test writes, so that each ETag (weak, strong, moved or not) is exactly the one a case is about.
 */
describe('walkDirectory', () => {
  beforeAll(async () => {
    table = await freshTable();
  });

  it('queues every file and subdirectory on the first walk', async () => {
    const state = await freshState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), file('b.pdf'), dir('sub')] } });

    const outcome = await walk(state, folder, '', null);

    expect(await state.queued('file')).toEqual(['a.pdf', 'b.pdf']);
    expect(await state.queued('directory')).toEqual(['sub']);
    expect(outcome).toMatchObject({ total: 2, counts: { unchanged: 0, skipped: 0 }, listed: true });
  });

  it('gives each new file a fresh document id and nothing to replace', async () => {
    const state = await freshState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), file('b.pdf')] } });

    await walk(state, folder, '', null);

    const [a, b] = (await state.store.work(state.jobId, 'file', 10)) as Array<Extract<SyncWorkItem, { kind: 'file' }>>;
    expect(a!.replaces).toBeNull();
    expect(a!.document_id).not.toEqual(b!.document_id);
  });

  it('remembers the listed directory with its ETag and subdirectories', async () => {
    const state = await freshState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), dir('sub', '"s"')] } });

    await walk(state, folder, '', null);

    expect(await state.remembered('')).toEqual({ etag: '"root"', files: new Map(), directories: new Map([['sub', '"s"']]), summaries: new Map() });
  });

  it('does not list a leaf subdirectory whose ETag is trusted, and counts its remembered files unchanged', async () => {
    const state = await freshState();
    await state.store.saveDirectory(state.sourceId, '', '"root"', new Map([['leaf', '"L"']]));
    await state.store.summarize(state.sourceId, 'leaf', '"L"', { files: 2, directories: 0 });
    const folder = folderOf({ '': { etag: '"root"', children: [dir('leaf', 'W/"L"')] } });

    const outcome = await walk(state, folder, '', null);

    expect(folder.listed).toEqual(['']);
    expect(outcome).toEqual({ total: 2, counts: { unchanged: 2 }, skipped: [], listed: true });
    expect(await state.queued('directory')).toEqual([]);
  });

  it('lists a leaf subdirectory whose ETag moved', async () => {
    const state = await freshState();
    await state.store.saveDirectory(state.sourceId, '', '"root"', new Map([['leaf', '"L"']]));
    await state.store.summarize(state.sourceId, 'leaf', '"L"', { files: 2, directories: 0 });
    const folder = folderOf({ '': { etag: '"root"', children: [dir('leaf', '"L2"')] } });

    await walk(state, folder, '', null);

    expect(await state.queued('directory')).toEqual(['leaf']);
  });

  it('lists a trusted directory with subdirectories, queues them, and does not compare its files', async () => {
    const state = await freshState();
    await state.store.saveDirectory(state.sourceId, '', '"root"', new Map([['sub', '"s"']]));
    await state.store.saveFile(state.sourceId, 'a.pdf', remembered({ etag: '"old"' }));
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf', '"new"'), dir('sub', '"s"')] } });

    const outcome = await walk(state, folder, '', '"root"');

    expect(folder.listed).toEqual(['']);
    expect(await state.queued('directory')).toEqual(['sub']);
    expect(await state.queued('file')).toEqual([]);
    expect(outcome).toMatchObject({ total: 1, counts: { unchanged: 1 }, listed: true });
  });

  it('compares every file of a trusted directory on a full walk', async () => {
    const state = await freshState();
    await state.store.saveDirectory(state.sourceId, 'leaf', '"L"', new Map());
    await state.store.saveFile(state.sourceId, 'leaf/a.pdf', remembered({ etag: '"old"' }));
    const folder = folderOf({ leaf: { etag: '"L"', children: [file('leaf/a.pdf', '"new"')] } });

    await walk(state, folder, 'leaf', '"L"', { fullWalk: true });

    expect(folder.listed).toEqual(['leaf']);
    expect(await state.queued('file')).toEqual(['leaf/a.pdf']);
  });

  it('queues a changed file to replace the document it became', async () => {
    const state = await freshState();
    const before = remembered({ etag: '"v1"' });
    await state.store.saveDirectory(state.sourceId, '', '"root-1"', new Map());
    await state.store.saveFile(state.sourceId, 'a.pdf', before);
    const folder = folderOf({ '': { etag: '"root-2"', children: [file('a.pdf', '"v2"')] } });

    await walk(state, folder, '', '"root-2"');

    expect(await state.store.work(state.jobId, 'file', 10)).toEqual([
      { kind: 'file', path: 'a.pdf', etag: '"v2"', size: 10, last_modified: T1, document_id: before.document_id, replaces: before.document_id },
    ]);
  });

  it('counts an unchanged file of a changed directory as unchanged, without queueing it', async () => {
    const state = await freshState();
    await state.store.saveDirectory(state.sourceId, '', '"root-1"', new Map());
    await state.store.saveFile(state.sourceId, 'a.pdf', remembered({ etag: '"a"' }));
    const folder = folderOf({ '': { etag: '"root-2"', children: [file('a.pdf', '"a"'), file('new.pdf')] } });

    const outcome = await walk(state, folder, '', '"root-2"');

    expect(await state.queued('file')).toEqual(['new.pdf']);
    expect(outcome).toMatchObject({ total: 2, counts: { unchanged: 1 } });
  });

  it('forgets files that disappeared from the server', async () => {
    const state = await freshState();
    await state.store.saveDirectory(state.sourceId, '', '"root-1"', new Map());
    await state.store.saveFile(state.sourceId, 'kept.pdf', remembered({ etag: '"k"' }));
    await state.store.saveFile(state.sourceId, 'gone.pdf', remembered());
    const folder = folderOf({ '': { etag: '"root-2"', children: [file('kept.pdf', '"k"')] } });

    await walk(state, folder, '', '"root-2"');

    expect([...(await state.remembered(''))!.files.keys()]).toEqual(['kept.pdf']);
  });

  it('ignores subdirectories when the source is not recursive', async () => {
    const state = await freshState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), dir('sub')] } });

    await walk(state, folder, '', null, { recursive: false });

    expect(await state.queued('directory')).toEqual([]);
    expect((await state.remembered(''))?.directories).toEqual(new Map());
  });

  it('queues only the files the patterns match, and counts only those', async () => {
    const state = await freshState();
    const folder = folderOf({ '': { etag: '"root"', children: [file('a.pdf'), file('b.txt'), file('c.PDF')] } });

    const outcome = await walk(state, folder, '', null, { patterns: compileFilePatterns(['*.pdf']) });

    expect(await state.queued('file')).toEqual(['a.pdf', 'c.PDF']);
    expect(outcome.total).toBe(2);
  });

  it('skips a file whose path is too long, and says why', async () => {
    const state = await freshState();
    const long = `${'x'.repeat(901)}.pdf`;
    const folder = folderOf({ '': { etag: '"root"', children: [file(long)] } });

    const outcome = await walk(state, folder, '', null);

    expect(await state.queued('file')).toEqual([]);
    expect(outcome).toMatchObject({ total: 1, counts: { skipped: 1 }, skipped: [{ path: long, reason: 'the path is too long' }] });
  });
});
