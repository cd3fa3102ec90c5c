import { ListObjectsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket } from '../../../../../shared/adapters/aws/provisioning';
import { S3WorkspaceEraser } from '../../../../../shared/adapters/aws/s3/workspace-eraser';
import { testClients, uniqueName } from '../../../../support/aws-resources';

/** More objects than one listing page holds (1,000), on the S3 emulator: the erasure must page past the first. */
const OBJECTS = 1100;

describe('erasing a workspace from the emulated bucket', () => {
  const s3 = testClients().s3;
  const bucket = uniqueName('erase-objects');
  const gone = crypto.randomUUID();
  const kept = crypto.randomUUID();

  beforeAll(async () => {
    await ensureBucket(s3, bucket);
    const keys = [
      ...Array.from({ length: OBJECTS }, () => `workspaces/${gone}/documents/${crypto.randomUUID()}/original`),
      `uploads/${gone}/${crypto.randomUUID()}`,
      `sync-staging/${gone}/${crypto.randomUUID()}`,
      `workspaces/${kept}/documents/${crypto.randomUUID()}/original`,
      `uploads/${kept}/${crypto.randomUUID()}`,
    ];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < keys.length) await s3.send(new PutObjectCommand({ Bucket: bucket, Key: keys[next++]!, Body: 'x' }));
      }),
    );
  }, 120_000);

  it('deletes every object under its prefixes past the first listing page, and none of another workspace', async () => {
    const removed = await new S3WorkspaceEraser(s3, bucket, false).erase(gone);

    const left = ((await s3.send(new ListObjectsCommand({ Bucket: bucket }))).Contents ?? []).map((object) => object.Key!);
    expect(removed).toBe(OBJECTS + 2);
    expect(left.filter((key) => key.includes(gone))).toEqual([]);
    expect(left.filter((key) => key.includes(kept))).toHaveLength(2);
  }, 120_000);
});
