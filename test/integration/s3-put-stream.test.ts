import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { ensureBucket } from '../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { FileTooLargeError } from '../../shared/domain/files/ports';
import { testClients, uniqueName } from '../support/aws-resources';

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
