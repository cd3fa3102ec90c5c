import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoSyncStateStore } from '../../../../../shared/adapters/aws/dynamodb/sync-state-store';
import type { RememberedFile, SyncWorkItem } from '../../../../../shared/domain/sources/ports';
import { freshTable } from '../../../../support/aws-resources';

const aFile = (overrides: Partial<RememberedFile> = {}): RememberedFile => ({
  etag: '"e"',
  size: 10,
  last_modified: '2026-01-01T00:00:00.000Z',
  document_id: crypto.randomUUID(),
  ...overrides,
});

const fileWork = (path: string): SyncWorkItem => ({
  kind: 'file',
  path,
  etag: '"e"',
  size: 10,
  last_modified: '2026-01-01T00:00:00.000Z',
  document_id: crypto.randomUUID(),
  replaces: null,
});
const directoryWork = (path: string): SyncWorkItem => ({ kind: 'directory', path, etag: null });

describe('DynamoSyncStateStore', () => {
  let state: DynamoSyncStateStore;
  /** Each test its own source and job: the store is shared, the partitions are not. */
  const ids = () => ({ sourceId: crypto.randomUUID(), jobId: crypto.randomUUID() });

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    state = new DynamoSyncStateStore(db, tableName, crypto.randomUUID());
  });

  it('remembers nothing of a directory never saved', async () => {
    expect(await state.directory(ids().sourceId, '')).toBeNull();
  });

  it('reads back a saved directory with its ETag and subdirectories', async () => {
    const { sourceId } = ids();

    await state.saveDirectory(sourceId, 'scans', 'W/"d"', new Map([['2024', '"a"'], ['2025', null]]));

    expect(await state.directory(sourceId, 'scans')).toEqual({ etag: 'W/"d"', files: new Map(), directories: new Map([['2024', '"a"'], ['2025', null]]), summaries: new Map() });
  });

  it('reads a saved file back under its directory by name', async () => {
    const { sourceId } = ids();
    const file = aFile();
    await state.saveDirectory(sourceId, 'scans/2024', '"d"', new Map());

    await state.saveFile(sourceId, 'scans/2024/März.pdf', file);

    expect((await state.directory(sourceId, 'scans/2024'))?.files).toEqual(new Map([['März.pdf', file]]));
  });

  it('reads back a file remembered without ETag, size or document', async () => {
    const { sourceId } = ids();
    const file = aFile({ etag: null, size: null, last_modified: null, document_id: null });
    await state.saveDirectory(sourceId, '', '"root"', new Map());

    await state.saveFile(sourceId, 'refused.exe', file);

    expect((await state.directory(sourceId, ''))?.files.get('refused.exe')).toEqual(file);
  });

  it('forgets the files it is told to, and keeps the others', async () => {
    const { sourceId } = ids();
    await state.saveDirectory(sourceId, '', '"root"', new Map());
    await state.saveFile(sourceId, 'a.pdf', aFile());
    await state.saveFile(sourceId, 'b.pdf', aFile());

    await state.forgetFiles(sourceId, ['a.pdf']);

    expect([...(await state.directory(sourceId, ''))!.files.keys()]).toEqual(['b.pdf']);
  });

  it('forgets the remembered tree of a subdirectory that vanished', async () => {
    const { sourceId } = ids();
    await state.saveDirectory(sourceId, '', '"r1"', new Map([['old', '"o"'], ['kept', '"k"']]));
    await state.saveDirectory(sourceId, 'old', '"o"', new Map([['deep', '"x"']]));
    await state.saveDirectory(sourceId, 'old/deep', '"x"', new Map());
    await state.saveFile(sourceId, 'old/deep/a.pdf', aFile());
    await state.saveDirectory(sourceId, 'kept', '"k"', new Map());

    await state.saveDirectory(sourceId, '', '"r2"', new Map([['kept', '"k"']]));

    expect(await state.directory(sourceId, 'old')).toBeNull();
    expect(await state.directory(sourceId, 'old/deep')).toBeNull();
    expect(await state.directory(sourceId, 'kept')).not.toBeNull();
    expect((await state.directory(sourceId, ''))?.directories).toEqual(new Map([['kept', '"k"']]));
  });

  it('keeps a directory files when it is saved again', async () => {
    const { sourceId } = ids();
    const file = aFile();
    await state.saveDirectory(sourceId, '', '"r1"', new Map());
    await state.saveFile(sourceId, 'a.pdf', file);

    await state.saveDirectory(sourceId, '', '"r2"', new Map());

    expect(await state.directory(sourceId, '')).toEqual({ etag: '"r2"', files: new Map([['a.pdf', file]]), directories: new Map(), summaries: new Map() });
  });

  it('distrusts a directory by forgetting its ETag only', async () => {
    const { sourceId } = ids();
    await state.saveDirectory(sourceId, 'scans', '"d"', new Map([['sub', '"s"']]));
    await state.saveFile(sourceId, 'scans/a.pdf', aFile());

    await state.distrustDirectory(sourceId, 'scans');

    const directory = await state.directory(sourceId, 'scans');
    expect(directory?.etag).toBeNull();
    expect(directory?.files.size).toBe(1);
    expect(directory?.directories).toEqual(new Map([['sub', '"s"']]));
  });

  it('keeps a walked subdirectory\'s summary in its parent while its ETag stays', async () => {
    const { sourceId } = ids();
    await state.saveDirectory(sourceId, '', '"r1"', new Map([['leaf', '"L"']]));
    await state.summarize(sourceId, 'leaf', '"L"', { files: 3, directories: 0 });

    await state.saveDirectory(sourceId, '', '"r2"', new Map([['leaf', '"L"']]));

    expect((await state.directory(sourceId, ''))?.summaries).toEqual(new Map([['leaf', { files: 3, directories: 0 }]]));
  });

  it('drops a subdirectory\'s summary when its ETag moves', async () => {
    const { sourceId } = ids();
    await state.saveDirectory(sourceId, '', '"r1"', new Map([['leaf', '"L"']]));
    await state.summarize(sourceId, 'leaf', '"L"', { files: 3, directories: 0 });

    await state.saveDirectory(sourceId, '', '"r2"', new Map([['leaf', '"L2"']]));

    expect((await state.directory(sourceId, ''))?.summaries).toEqual(new Map());
  });

  it('distrusts a directory in its parent too, so that its parent lists it again', async () => {
    const { sourceId } = ids();
    await state.saveDirectory(sourceId, '', '"r"', new Map([['scans', '"d"']]));
    await state.summarize(sourceId, 'scans', '"d"', { files: 1, directories: 0 });

    await state.distrustDirectory(sourceId, 'scans');

    expect((await state.directory(sourceId, ''))?.directories.get('scans')).toBeNull();
  });

  it('distrusts a directory never saved without creating it', async () => {
    const { sourceId } = ids();

    await state.distrustDirectory(sourceId, 'nowhere');

    expect(await state.directory(sourceId, 'nowhere')).toBeNull();
  });

  it('gives back the work of one kind in path order', async () => {
    const { jobId } = ids();
    const files = [fileWork('b/z.pdf'), fileWork('a.pdf'), fileWork('b/a.pdf')];

    await state.addWork(jobId, [...files, directoryWork('b'), directoryWork('a')]);

    expect(await state.work(jobId, 'file', 10)).toEqual([files[1], files[2], files[0]]);
    expect((await state.work(jobId, 'directory', 10)).map((item) => item.path)).toEqual(['a', 'b']);
  });

  it('gives back no more work than the limit', async () => {
    const { jobId } = ids();
    await state.addWork(jobId, Array.from({ length: 30 }, (_, i) => fileWork(`f${String(i).padStart(2, '0')}.pdf`)));

    expect((await state.work(jobId, 'file', 5)).map((item) => item.path)).toEqual(['f00.pdf', 'f01.pdf', 'f02.pdf', 'f03.pdf', 'f04.pdf']);
  });

  it('drops work once it is done', async () => {
    const { jobId } = ids();
    const [done, left] = [fileWork('done.pdf'), fileWork('left.pdf')];
    await state.addWork(jobId, [done, left]);

    await state.workDone(jobId, done);

    expect(await state.work(jobId, 'file', 10)).toEqual([left]);
  });

  it('keeps a file and a directory of the same path apart in the work list', async () => {
    const { jobId } = ids();
    const file = fileWork('same');
    await state.addWork(jobId, [file, directoryWork('same')]);

    await state.workDone(jobId, directoryWork('same'));

    expect(await state.work(jobId, 'file', 10)).toEqual([file]);
    expect(await state.work(jobId, 'directory', 10)).toEqual([]);
  });

  it('forgets the whole tree and the work of the jobs it is given', async () => {
    const { sourceId, jobId } = ids();
    await state.saveDirectory(sourceId, '', '"r"', new Map([['sub', '"s"']]));
    await state.saveDirectory(sourceId, 'sub', '"s"', new Map());
    await state.saveFile(sourceId, 'a.pdf', aFile());
    await state.saveFile(sourceId, 'sub/b.pdf', aFile());
    await state.addWork(jobId, [fileWork('a.pdf'), directoryWork('sub')]);

    await state.forget(sourceId, [jobId]);

    expect(await state.directory(sourceId, '')).toBeNull();
    expect(await state.directory(sourceId, 'sub')).toBeNull();
    expect(await state.work(jobId, 'file', 10)).toEqual([]);
    expect(await state.work(jobId, 'directory', 10)).toEqual([]);
  });

  it('keeps the trees of other sources when forgetting one', async () => {
    const [gone, kept] = [ids(), ids()];
    await state.saveDirectory(gone.sourceId, '', '"r"', new Map());
    await state.saveDirectory(kept.sourceId, '', '"r"', new Map());

    await state.forget(gone.sourceId, []);

    expect(await state.directory(kept.sourceId, '')).not.toBeNull();
  });
});
