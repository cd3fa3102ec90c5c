import { DeleteObjectsCommand, ListObjectsCommand, ListObjectVersionsCommand, type S3Client } from '@aws-sdk/client-s3';
import type { WorkspaceObjectEraser } from '../../../domain/erasure/ports';
import { STAGING_PREFIX, SYNC_STAGING_PREFIX, WORKSPACES_PREFIX } from '../../../manifest';

/**
 * Every prefix under which the bucket holds a workspace's objects (see documents/bucket-layout.ts): its own
 * part, its staged uploads and the files its syncs are writing.
 */
export const workspaceObjectPrefixes = (workspaceId: string): string[] =>
  [WORKSPACES_PREFIX, STAGING_PREFIX, SYNC_STAGING_PREFIX].map((prefix) => `${prefix}${workspaceId}/`);

type ObjectId = { Key: string; VersionId?: string };

/** Failed rounds in a row before the unversioned erasure gives up (each is followed by a pause and a fresh listing). */
const UNVERSIONED_ATTEMPTS = 8;

/**
 * The bucket's part of a workspace's erasure. In a versioned bucket (the cloud's) a deleted object keeps its
 * versions and gains a delete marker, so this lists and deletes every version and every marker by id
 * (`s3:DeleteObjectVersion`); in an unversioned one (the local emulator, which implements no versioning) the
 * objects themselves. 1,000 a request; idempotent (what is gone is not listed again).
 */
export class S3WorkspaceEraser implements WorkspaceObjectEraser {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly versioned: boolean,
  ) {}

  async erase(workspaceId: string): Promise<number> {
    let removed = 0;
    for (const prefix of workspaceObjectPrefixes(workspaceId)) removed += this.versioned ? await this.eraseVersions(prefix) : await this.eraseObjects(prefix);
    return removed;
  }

  private async eraseVersions(prefix: string): Promise<number> {
    let removed = 0;
    let keyMarker: string | undefined;
    let versionMarker: string | undefined;
    do {
      const page = await this.s3.send(new ListObjectVersionsCommand({ Bucket: this.bucket, Prefix: prefix, KeyMarker: keyMarker, VersionIdMarker: versionMarker }));
      const ids = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].flatMap((entry) =>
        entry.Key ? [{ Key: entry.Key, ...(entry.VersionId ? { VersionId: entry.VersionId } : {}) }] : [],
      );
      removed += await this.delete(ids);
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      versionMarker = page.IsTruncated ? page.NextVersionIdMarker : undefined;
    } while (keyMarker !== undefined);
    return removed;
  }

  private async eraseObjects(prefix: string): Promise<number> {
    let removed = 0;
    for (let failed = 0; ; ) {
      try {
        // Deleting while listing moves the listing's window: each page is listed again from the start. The first
        // version of the listing: the local S3 emulator encrypts V2 continuation tokens with DES, which OpenSSL 3
        // does not offer (a 500 past 1,000 keys).
        const page = await this.s3.send(new ListObjectsCommand({ Bucket: this.bucket, Prefix: prefix }));
        const ids = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (!ids.length) return removed;
        removed += await this.delete(ids);
        failed = 0;
      } catch (error) {
        // The S3 emulator deletes a request's objects side by side, then their emptied folders, which two of them
        // may race to remove: the request fails (a 500) while the others still run, and a listing meanwhile trips
        // on a folder going away. After a pause the next listing shows what is left.
        if (++failed >= UNVERSIONED_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** failed));
      }
    }
  }

  private async delete(ids: ObjectId[]): Promise<number> {
    for (let start = 0; start < ids.length; start += 1000) {
      const { Errors } = await this.s3.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: ids.slice(start, start + 1000), Quiet: true } }),
      );
      if (Errors?.length) throw new Error(`the bucket refused to delete ${Errors.length} object(s) of the workspace: ${Errors[0]?.Code ?? 'unknown'}`);
    }
    return ids.length;
  }
}
