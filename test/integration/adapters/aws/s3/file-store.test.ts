import { createHash } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { ensureBucket } from '../../../../../shared/adapters/aws/provisioning';
import { lazyS3FileStore } from '../../../../../shared/adapters/aws/s3/lazy-file-store';
import { S3FileStore } from '../../../../../shared/adapters/aws/s3/file-store';
import type { FileStore } from '../../../../../shared/domain/files/ports';
import { localClientOptions } from '../../../../../shared/container/local';
import { testClients, uniqueName } from '../../../../support/aws-resources';

/** The store over a bucket of its own: S3FileStore as built, or loaded on its first call (the documents function's). */
const makers: [name: string, make: (bucket: string) => FileStore][] = [
  ['S3FileStore', (bucket) => new S3FileStore(testClients().s3, bucket)],
  ['lazyS3FileStore', (bucket) => lazyS3FileStore(bucket, localClientOptions(inject('awsEndpoints').s3))],
];

describe.each(makers)('%s', (_name, make) => {
  const store = async () => {
    const bucket = uniqueName('files');
    await ensureBucket(testClients().s3, bucket);
    return make(bucket);
  };

  it('returns the bytes it stored, and null for a missing key', async () => {
    const files = await store();
    const bytes = new Uint8Array([0, 1, 2, 255]);

    await files.put('documents/a/original', bytes, 'application/octet-stream');

    expect(await files.get('documents/a/original')).toEqual(bytes);
    expect(await files.get('documents/missing/original')).toBeNull();
  });

  it('deletes every object under a prefix and nothing else', async () => {
    const files = await store();
    await files.put('documents/a/original', new Uint8Array([1]), 'image/png');
    await files.put('documents/a/thumbnails/200x200', new Uint8Array([2]), 'image/png');
    await files.put('documents/ab/original', new Uint8Array([3]), 'image/png');

    await files.deletePrefix('documents/a/');

    expect(await files.get('documents/a/original')).toBeNull();
    expect(await files.get('documents/a/thumbnails/200x200')).toBeNull();
    expect(await files.get('documents/ab/original')).toEqual(new Uint8Array([3]));
  });

  it('makes a download URL that serves the bytes as a named attachment', async () => {
    const files = await store();
    await files.put('documents/u/original', new Uint8Array([7, 8, 9]), 'application/pdf');

    const url = await files.downloadUrl('documents/u/original', 'report (final).pdf', 'application/pdf');
    const response = await fetch(url);

    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([7, 8, 9]));
    expect(response.headers.get('content-disposition')).toContain('filename*=UTF-8');
  });

  it('inspects an object in one pass: size, first bytes and SHA-256', async () => {
    const files = await store();
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    await files.put('uploads/x', bytes, 'application/octet-stream');

    const info = await files.inspect('uploads/x', 16);

    expect(info).toEqual({
      size: bytes.length,
      head: bytes.subarray(0, 16),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(await files.inspect('uploads/missing', 16)).toBeNull();
  });

  it('moves an object to another key with the given content type', async () => {
    const files = await store();
    await files.put('uploads/m', new Uint8Array([4, 5]), 'application/octet-stream');

    await files.move('uploads/m', 'documents/m/original', 'image/png');

    expect(await files.get('uploads/m')).toBeNull();
    expect(await files.get('documents/m/original')).toEqual(new Uint8Array([4, 5]));
  });

  it('makes an upload URL that stores the body of a PUT at the key', async () => {
    const files = await store();

    const url = await files.uploadUrl('uploads/p', 60, 3);
    const response = await fetch(url, { method: 'PUT', body: new Uint8Array([1, 2, 3]) });

    expect(response.status).toBe(200);
    expect(await files.get('uploads/p')).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('signs the announced Content-Length into the upload URL', async () => {
    const files = await store();

    const url = new URL(await files.uploadUrl('uploads/s', 60, 3));

    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
  });
});

describe('lazyS3FileStore', () => {
  it('stores a stream through the S3 store it loads', async () => {
    const bucket = uniqueName('files');
    await ensureBucket(testClients().s3, bucket);
    const files = lazyS3FileStore(bucket, localClientOptions(inject('awsEndpoints').s3));
    async function* chunks() {
      yield new Uint8Array([1, 2]);
      yield new Uint8Array([3]);
    }

    const info = await files.putStream('uploads/streamed', chunks(), { contentType: 'application/octet-stream', maxBytes: 10, headBytes: 2 });

    expect(info.size).toBe(3);
    expect(await files.get('uploads/streamed')).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('names an object by its own key, as S3FileStore does, before anything is loaded', () => {
    const files = lazyS3FileStore('a-bucket');

    expect(files.bucketKey('documents/d/original')).toBe(new S3FileStore(testClients().s3, 'a-bucket').bucketKey('documents/d/original'));
  });
});
