import { CopyObjectCommand, DeleteObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { STAGING_PREFIX } from '../../../manifest';
import { bucketKey } from '../../../domain/documents/bucket-layout';
import type { LegacyDataAdopter } from '../../../domain/workspaces/ports';

/** What versions before workspaces wrote at the top of the bucket: documents' files and staged uploads. */
const LEGACY_PREFIXES = ['documents/', STAGING_PREFIX];
/** A staged upload of that time: `uploads/<id>`, with no workspace segment. */
const isLegacyKey = (key: string): boolean => key.startsWith('documents/') || /^uploads\/[^/]+$/.test(key);

/**
 * Moves the objects a version before workspaces wrote into the given workspace's part of the bucket (see
 * bucket-layout.ts), keeping their metadata: a server-side copy, then a delete. Idempotent.
 */
export class S3LegacyObjectAdopter implements LegacyDataAdopter {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async adopt(workspaceId: string): Promise<number> {
    let adopted = 0;
    for (const prefix of LEGACY_PREFIXES) {
      let token: string | undefined;
      do {
        const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
        for (const key of (page.Contents ?? []).flatMap((object) => (object.Key && isLegacyKey(object.Key) ? [object.Key] : []))) {
          await this.s3.send(
            new CopyObjectCommand({
              Bucket: this.bucket,
              Key: bucketKey(workspaceId, key),
              CopySource: `${this.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
              MetadataDirective: 'COPY',
            }),
          );
          await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
          adopted++;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    }
    return adopted;
  }
}
