import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import type { SyncWorkItem } from '../../../../shared/domain/sources/ports';
import { syncFile } from '../../../../shared/domain/sources/sync-file';
import { aDocumentRecord } from '../../../support/builders';
import { minimalPdf } from '../../../support/minimal-files';
import { DAV_USER, davFolders, sourceWorld, storedSource, type SourceWorld } from './source-world';

/** A one-page PDF whose bytes differ by `tag`. */
const pdf = (tag: string) => Buffer.from(minimalPdf(1, ` /Tag (${tag})`));

type FileWork = Extract<SyncWorkItem, { kind: 'file' }>;

/** The work item of a file of the folder, as a directory's walk saves it. */
const fileWork = (path: string, overrides: Partial<FileWork> = {}): FileWork => ({
  kind: 'file',
  path,
  etag: '"e1"',
  size: null,
  last_modified: null,
  document_id: crypto.randomUUID(),
  replaces: null,
  ...overrides,
});

/**
 * One file of a sync brought in, from a real WebDAV server (rclone), into documents on DynamoDB Local and files
 * in the S3 emulator.
 */
describe('syncFile', () => {
  let served: Awaited<ReturnType<typeof davFolders>>;
  let world: SourceWorld;

  beforeAll(async () => {
    served = await davFolders();
    world = await sourceWorld();
  });

  afterAll(async () => {
    await served?.stop();
  });

  /** A source on a folder of `files`, the deps of a file's sync, and the folder as the sync reads it. */
  async function sourceOf(files: Record<string, string | Buffer>) {
    const stores = world.inWorkspace();
    const deps = { ...stores, ocrLanguage: async () => 'deu' };
    const { url, path } = await served.folder(files);
    const source = await storedSource(stores, url);
    const folder = world.remoteFolders.open({ url, ...DAV_USER });
    // The walk of the root saved it before handing its files on.
    await stores.syncState.saveDirectory(source.id, '', '"root"', new Map());
    const remembered = async (file: string) => (await deps.syncState.directory(source.id, ''))?.files.get(file) ?? null;
    return { deps, path, source, folder, remembered };
  }

  it("makes a new file a document of the source, in its creator's OCR language, and remembers it", async () => {
    // Arrange
    const { deps, source, folder, remembered } = await sourceOf({ 'scan.pdf': pdf('new') });
    const item = fileWork('scan.pdf');

    // Act
    const outcome = await syncFile(deps, folder, source, item);

    // Assert
    expect(outcome).toEqual({ count: 'new' });
    expect(await deps.documents.get(item.document_id)).toMatchObject({ filename: 'scan.pdf', source_id: source.id, created_by: source.created_by, language: 'deu', size: pdf('new').length });
    expect(Buffer.from((await deps.files.get(fileKeys.original(item.document_id)))!)).toEqual(pdf('new'));
    expect(await remembered('scan.pdf')).toMatchObject({ etag: '"e1"', document_id: item.document_id });
  });

  it('records a file whose bytes a document of the workspace already has as a duplicate, storing nothing', async () => {
    // Arrange
    const { deps, source, folder } = await sourceOf({ 'first.pdf': pdf('twice'), 'again.pdf': pdf('twice') });
    const first = fileWork('first.pdf');
    await syncFile(deps, folder, source, first);
    const again = fileWork('again.pdf');

    // Act
    const outcome = await syncFile(deps, folder, source, again);

    // Assert
    expect(outcome).toEqual({ count: 'duplicates', reason: `same content as document ${first.document_id}` });
    expect(await deps.documents.get(again.document_id)).toBeNull();
  });

  it.each([
    ['an empty file', '', 'the file is empty (0 bytes)'],
    ['a file of an unsupported type', 'just some text', 'the content is not a supported document type'],
  ])('skips %s, saying why, and remembers it so that it is not fetched again', async (_, content, reason) => {
    // Arrange
    const { deps, source, folder, remembered } = await sourceOf({ 'odd.pdf': content });
    const item = fileWork('odd.pdf');

    // Act
    const outcome = await syncFile(deps, folder, source, item);

    // Assert
    expect(outcome).toEqual({ count: 'skipped', reason });
    expect(await deps.documents.get(item.document_id)).toBeNull();
    expect(await remembered('odd.pdf')).toMatchObject({ document_id: null });
  });

  it("replaces a changed file's document's bytes, leaving its queued OCR run to read the new ones", async () => {
    // Arrange
    const { deps, path, source, folder } = await sourceOf({ 'scan.pdf': pdf('before') });
    const first = fileWork('scan.pdf');
    await syncFile(deps, folder, source, first);
    await writeFile(join(path, 'scan.pdf'), pdf('after, a little longer'));
    const jobBefore = (await deps.ocrJobs.get(first.document_id))!;

    // Act
    const outcome = await syncFile(deps, folder, source, fileWork('scan.pdf', { etag: '"e2"', replaces: first.document_id }));

    // Assert
    expect(outcome).toEqual({ count: 'changed' });
    expect(await deps.documents.get(first.document_id)).toMatchObject({ size: pdf('after, a little longer').length });
    expect(Buffer.from((await deps.files.get(fileKeys.original(first.document_id)))!)).toEqual(pdf('after, a little longer'));
    expect(await deps.ocrJobs.get(first.document_id)).toMatchObject({ run: jobBefore.run, status: 'queued' });
  });

  it('counts a file the server no longer gives as failed, remembers nothing of it and distrusts its directory', async () => {
    // Arrange
    const { deps, source, folder, remembered } = await sourceOf({});

    // Act
    const outcome = await syncFile(deps, folder, source, fileWork('gone.pdf'));

    // Assert
    expect(outcome).toMatchObject({ count: 'failed' });
    expect(await remembered('gone.pdf')).toBeNull();
    expect((await deps.syncState.directory(source.id, ''))?.etag).toBeNull();
  });

  it('counts as new, without fetching it again, a file whose document an earlier step stored', async () => {
    // Arrange
    const { deps, path, source, folder, remembered } = await sourceOf({ 'scan.pdf': pdf('stored') });
    const item = fileWork('scan.pdf');
    await deps.documents.create(aDocumentRecord({ id: item.document_id, source_id: source.id }));
    await writeFile(join(path, 'scan.pdf'), '');

    // Act
    const outcome = await syncFile(deps, folder, source, item);

    // Assert
    expect(outcome).toEqual({ count: 'new' });
    expect(await remembered('scan.pdf')).toMatchObject({ document_id: item.document_id });
  });
});
