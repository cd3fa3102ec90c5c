import { createHash } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { ensureBucket } from '../../../../../shared/adapters/aws/provisioning';
import { lazyS3FileStore } from '../../../../../shared/adapters/aws/s3/lazy-file-store';
import { S3FileStore } from '../../../../../shared/adapters/aws/s3/file-store';
import type { FileStore } from '../../../../../shared/domain/files/ports';
import { localClientOptions } from '../../../../../shared/local/local-clients';
import { testClients, uniqueName } from '../../../../support/aws-resources';
import type { S3Client } from '@aws-sdk/client-s3';
import { FileTooLargeError } from '../../../../../shared/domain/files/ports';

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

const MiB = 1024 * 1024;

/** The names of the commands a client sends, in order (the real emulator still answers them). */
function recordCommands(s3: S3Client): string[] {
  const sent: string[] = [];
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'record-commands' },
  );
  return sent;
}

/** The bytes as chunks of `chunk` bytes, the way a download arrives. */
async function* chunksOf(bytes: Uint8Array, chunk: number): AsyncIterable<Uint8Array> {
  for (let start = 0; start < bytes.length; start += chunk) yield bytes.subarray(start, start + chunk);
}

const patterned = (total: number) => new Uint8Array(total).map((_, i) => (i * 7 + (i >> 12)) % 256);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('S3FileStore.putStream', () => {
  const store = async () => {
    const { s3 } = testClients();
    const bucket = uniqueName('stream');
    await ensureBucket(s3, bucket);
    const sent = recordCommands(s3);
    return { files: new S3FileStore(s3, bucket), sent };
  };

  it('stores a small file in one PutObject and returns its size', async () => {
    const { files, sent } = await store();
    const bytes = patterned(300 * 1024);

    const { size } = await files.putStream('sources/small', chunksOf(bytes, 64 * 1024), { contentType: 'application/pdf', maxBytes: 10 * MiB, headBytes: 4 });

    expect(size).toBe(bytes.length);
    expect(sent).toEqual(['PutObjectCommand']);
    expect(await files.get('sources/small')).toEqual(bytes);
  });

  it('stores a file over 8 MiB as a multipart upload, bytes unchanged', async () => {
    const { files, sent } = await store();
    const bytes = patterned(9 * MiB + 12_345);

    const { size } = await files.putStream('sources/large', chunksOf(bytes, MiB), { contentType: 'image/tiff', maxBytes: 20 * MiB, headBytes: 4 });

    expect(size).toBe(bytes.length);
    expect(sent).toEqual(['CreateMultipartUploadCommand', 'UploadPartCommand', 'UploadPartCommand', 'CompleteMultipartUploadCommand']);
    expect(sha256((await files.get('sources/large'))!)).toBe(sha256(bytes));
  });

  it('returns the SHA-256 and the first bytes it read on the way in', async () => {
    const { files } = await store();
    const bytes = patterned(9 * MiB + 7);

    const info = await files.putStream('sources/hashed', chunksOf(bytes, 3000), { contentType: 'image/png', maxBytes: 20 * MiB, headBytes: 4096 });

    expect(info).toEqual({ size: bytes.length, head: bytes.subarray(0, 4096), sha256: sha256(bytes) });
  });

  it('stores an empty stream as an empty object', async () => {
    const { files } = await store();

    const { size } = await files.putStream('sources/empty', chunksOf(new Uint8Array(0), 1), { contentType: 'text/plain', maxBytes: MiB, headBytes: 4 });

    expect(size).toBe(0);
    expect(await files.get('sources/empty')).toEqual(new Uint8Array(0));
  });

  it('refuses a small stream over maxBytes and leaves no object', async () => {
    const { files, sent } = await store();

    const put = files.putStream('sources/too-big', chunksOf(patterned(2 * MiB), 256 * 1024), { contentType: 'application/pdf', maxBytes: MiB, headBytes: 4 });

    await expect(put).rejects.toBeInstanceOf(FileTooLargeError);
    expect(sent).toEqual([]);
    expect(await files.get('sources/too-big')).toBeNull();
  });

  it('aborts the multipart upload of a stream that grows over maxBytes and leaves no object', async () => {
    const { files, sent } = await store();

    const put = files.putStream('sources/too-big', chunksOf(patterned(12 * MiB), MiB), { contentType: 'application/pdf', maxBytes: 10 * MiB, headBytes: 4 });

    await expect(put).rejects.toBeInstanceOf(FileTooLargeError);
    expect(sent).toEqual(['CreateMultipartUploadCommand', 'UploadPartCommand', 'AbortMultipartUploadCommand']);
    expect(await files.get('sources/too-big')).toBeNull();
  });
});
