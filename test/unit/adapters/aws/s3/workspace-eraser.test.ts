import { DeleteObjectsCommand, ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { S3WorkspaceEraser, workspaceObjectPrefixes } from '../../../../../shared/adapters/aws/s3/workspace-eraser';

const WS = '11111111-1111-4111-8111-111111111111';

/**
 * The versioned bucket's erasure, an AWS-only path (the S3 emulator implements no versioning): every version and
 * every delete marker under the workspace's prefixes is deleted by its version id, across listing pages.
 */
describe('erasing a workspace from a versioned bucket', () => {
  it('deletes every version and delete marker by id, page after page, under each of its prefixes', async () => {
    const s3 = mockClient(S3Client);
    s3.on(ListObjectVersionsCommand, { Prefix: `workspaces/${WS}/` })
      .resolvesOnce({
        Versions: [{ Key: `workspaces/${WS}/documents/a/original`, VersionId: 'v2' }, { Key: `workspaces/${WS}/documents/a/original`, VersionId: 'v1' }],
        IsTruncated: true,
        NextKeyMarker: `workspaces/${WS}/documents/a/original`,
        NextVersionIdMarker: 'v1',
      })
      .resolvesOnce({ DeleteMarkers: [{ Key: `workspaces/${WS}/documents/b/original`, VersionId: 'm1' }], IsTruncated: false });
    s3.on(ListObjectVersionsCommand, { Prefix: `uploads/${WS}/` }).resolves({ Versions: [{ Key: `uploads/${WS}/u1`, VersionId: 'v1' }], IsTruncated: false });
    s3.on(ListObjectVersionsCommand, { Prefix: `sync-staging/${WS}/` }).resolves({ IsTruncated: false });
    s3.on(DeleteObjectsCommand).resolves({});

    const removed = await new S3WorkspaceEraser(new S3Client({ region: 'eu-west-1' }), 'bucket', true).erase(WS);

    const deleted = s3.commandCalls(DeleteObjectsCommand).flatMap((call) => call.args[0].input.Delete?.Objects ?? []);
    expect(deleted).toEqual([
      { Key: `workspaces/${WS}/documents/a/original`, VersionId: 'v2' },
      { Key: `workspaces/${WS}/documents/a/original`, VersionId: 'v1' },
      { Key: `workspaces/${WS}/documents/b/original`, VersionId: 'm1' },
      { Key: `uploads/${WS}/u1`, VersionId: 'v1' },
    ]);
    expect(s3.commandCalls(ListObjectVersionsCommand)[1]!.args[0].input).toMatchObject({ KeyMarker: `workspaces/${WS}/documents/a/original`, VersionIdMarker: 'v1' });
    expect(removed).toBe(4);
    s3.restore();
  });

  it('fails when the bucket refuses to delete one of them', async () => {
    const s3 = mockClient(S3Client);
    s3.on(ListObjectVersionsCommand).resolves({ Versions: [{ Key: `workspaces/${WS}/x`, VersionId: 'v1' }], IsTruncated: false });
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: `workspaces/${WS}/x`, Code: 'AccessDenied' }] });

    await expect(new S3WorkspaceEraser(new S3Client({ region: 'eu-west-1' }), 'bucket', true).erase(WS)).rejects.toThrow('AccessDenied');
    s3.restore();
  });

  it("names the workspace's own part, its staged uploads and its syncs' staged files", () => {
    expect(workspaceObjectPrefixes(WS)).toEqual([`workspaces/${WS}/`, `uploads/${WS}/`, `sync-staging/${WS}/`]);
  });
});
