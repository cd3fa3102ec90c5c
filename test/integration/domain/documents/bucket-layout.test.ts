import { beforeAll, describe, expect, it } from 'vitest';
import { bucketKey, stagedObject, workspaceFileStore } from '../../../../shared/domain/documents/bucket-layout';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../shared/domain/workspaces/workspace';
import { PNG } from '../../../support/minimal-files';
import { domainStores } from '../workspace-stores';

const WORKSPACE = '11111111-1111-4111-8111-111111111111';
const DOCUMENT = '22222222-2222-4222-8222-222222222222';

describe('bucketKey', () => {
  it("puts a document's files under its workspace's prefix", () => {
    // Act
    const key = bucketKey(WORKSPACE, fileKeys.original(DOCUMENT));

    // Assert
    expect(key).toBe(`workspaces/${WORKSPACE}/documents/${DOCUMENT}/original`);
  });

  it('puts staged uploads and sync staging under their own prefixes, then the workspace', () => {
    // Act
    const keys = [bucketKey(WORKSPACE, fileKeys.staged(DOCUMENT)), bucketKey(WORKSPACE, fileKeys.syncStaged(DOCUMENT))];

    // Assert
    expect(keys).toEqual([`uploads/${WORKSPACE}/${DOCUMENT}`, `sync-staging/${WORKSPACE}/${DOCUMENT}`]);
  });
});

describe('stagedObject', () => {
  it("reads the workspace and the workspace's own key of a staged upload", () => {
    // Act
    const staged = stagedObject(`uploads/${WORKSPACE}/${DOCUMENT}`);

    // Assert
    expect(staged).toEqual({ workspaceId: WORKSPACE, key: `uploads/${DOCUMENT}` });
  });

  it('gives a staged upload from before workspaces to the first workspace', () => {
    // Act
    const staged = stagedObject(`uploads/${DOCUMENT}`);

    // Assert
    expect(staged).toEqual({ workspaceId: BOOTSTRAP_WORKSPACE_ID, key: `uploads/${DOCUMENT}` });
  });

  it('ignores any other object, or a staged key that is not made of ids', () => {
    // Act
    const keys = [`workspaces/${WORKSPACE}/documents/${DOCUMENT}/original`, 'uploads/not-an-id', `uploads/${WORKSPACE}/${DOCUMENT}/extra`, `uploads/${WORKSPACE}/../${DOCUMENT}`];

    // Assert
    expect(keys.map(stagedObject)).toEqual([null, null, null, null]);
  });
});

describe('workspaceFileStore', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it("stores a workspace's object at its key in the workspace's part of the bucket", async () => {
    // Arrange
    const workspaceId = crypto.randomUUID();
    const files = workspaceFileStore(stores.bucketFiles, workspaceId);

    // Act
    await files.put(fileKeys.original(DOCUMENT), PNG, 'image/png');

    // Assert
    expect(await stores.bucketFiles.get(`workspaces/${workspaceId}/documents/${DOCUMENT}/original`)).toEqual(PNG);
    expect(files.bucketKey(fileKeys.original(DOCUMENT))).toBe(`workspaces/${workspaceId}/documents/${DOCUMENT}/original`);
  });

  it("never reads nor deletes another workspace's object under the same key", async () => {
    // Arrange
    const [mine, theirs] = [workspaceFileStore(stores.bucketFiles, crypto.randomUUID()), workspaceFileStore(stores.bucketFiles, crypto.randomUUID())];
    await theirs.put(fileKeys.original(DOCUMENT), PNG, 'image/png');

    // Act
    const read = await mine.get(fileKeys.original(DOCUMENT));
    await mine.deletePrefix(fileKeys.prefix(DOCUMENT));

    // Assert
    expect(read).toBeNull();
    expect(await theirs.get(fileKeys.original(DOCUMENT))).toEqual(PNG);
  });

  it("moves a staged upload to the document's original within the workspace", async () => {
    // Arrange
    const files = workspaceFileStore(stores.bucketFiles, crypto.randomUUID());
    await files.put(fileKeys.staged(DOCUMENT), PNG, 'application/octet-stream');

    // Act
    await files.move(fileKeys.staged(DOCUMENT), fileKeys.original(DOCUMENT), 'image/png');

    // Assert
    expect([await files.get(fileKeys.staged(DOCUMENT)), await files.get(fileKeys.original(DOCUMENT))]).toEqual([null, PNG]);
  });
});
