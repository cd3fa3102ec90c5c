import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { FileTooLargeError, type FileStore, type StoredFileInfo } from '../../../domain/files/ports';
import { attachmentDisposition } from '../../../http/content-disposition';
import type { ClientOptions } from '../clients';
import { createS3Client } from './client';

/** How long a download link works. */
const DOWNLOAD_URL_SECONDS = 300;

/** The part size of a streamed write: what it holds in memory at most (S3's minimum part is 5 MiB). */
const STREAM_PART_BYTES = 8 * 1024 * 1024;

/** The files of `bucket`, over an S3 client of their own. */
export const s3FileStore = (bucket: string, clientOptions: ClientOptions = {}): S3FileStore => new S3FileStore(createS3Client(clientOptions), bucket);

/** Document files in one S3 bucket. */
export class S3FileStore implements FileStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  bucketKey(key: string): string {
    return key;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }));
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      const { Body } = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Body ? await Body.transformToByteArray() : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async putStream(
    key: string,
    chunks: AsyncIterable<Uint8Array>,
    { contentType, maxBytes, headBytes }: { contentType: string; maxBytes: number; headBytes: number },
  ): Promise<StoredFileInfo> {
    const hash = createHash('sha256');
    const head: Uint8Array[] = [];
    let headLength = 0;
    let part: Uint8Array[] = [];
    let partBytes = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: { ETag: string; PartNumber: number }[] = [];
    const info = (): StoredFileInfo => ({ size: total, head: new Uint8Array(Buffer.concat(head)), sha256: hash.digest('hex') });
    const flush = async () => {
      uploadId ??= (await this.s3.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }))).UploadId;
      const PartNumber = parts.length + 1;
      const { ETag } = await this.s3.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: Buffer.concat(part), ContentLength: partBytes }),
      );
      parts.push({ ETag: ETag ?? '', PartNumber });
      part = [];
      partBytes = 0;
    };
    try {
      for await (const chunk of chunks) {
        total += chunk.byteLength;
        if (total > maxBytes) throw new FileTooLargeError(maxBytes);
        hash.update(chunk);
        if (headLength < headBytes) {
          head.push(chunk.subarray(0, headBytes - headLength));
          headLength += Math.min(chunk.byteLength, headBytes - headLength);
        }
        part.push(chunk);
        partBytes += chunk.byteLength;
        if (partBytes >= STREAM_PART_BYTES) await flush();
      }
      if (!uploadId) {
        // Small enough for one request: no multipart upload at all.
        await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: Buffer.concat(part), ContentType: contentType }));
        return info();
      }
      if (partBytes) await flush();
      await this.s3.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      return info();
    } catch (error) {
      if (uploadId) await this.s3.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      throw error;
    }
  }

  async inspect(key: string, headBytes: number): Promise<StoredFileInfo | null> {
    let body: Readable;
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!object.Body) return null;
      body = object.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    // One pass over the stream: a 500 MB file is hashed without ever being held in memory.
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      size += bytes.length;
      if (headLength < headBytes) {
        head.push(bytes.subarray(0, headBytes - headLength));
        headLength += Math.min(bytes.length, headBytes - headLength);
      }
    }
    return { size, head: new Uint8Array(Buffer.concat(head)), sha256: hash.digest('hex') };
  }

  async move(from: string, to: string, contentType: string): Promise<void> {
    await this.s3.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: to,
        CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
        ContentType: contentType,
        MetadataDirective: 'REPLACE',
      }),
    );
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: from }));
  }

  uploadUrl(key: string, expiresInSeconds: number, contentLength: number): Promise<string> {
    // Content-Length is signed: S3 refuses a PUT of any other size before storing a byte.
    return getSignedUrl(this.s3, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentLength: contentLength }), {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(['content-length']),
    });
  }

  async deletePrefix(prefix: string): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.s3.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (objects.length) {
        await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } }));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  downloadUrl(key: string, filename: string, contentType: string): Promise<string> {
    return getSignedUrl(
      this.s3,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: attachmentDisposition(filename),
        ResponseContentType: contentType,
      }),
      { expiresIn: DOWNLOAD_URL_SECONDS },
    );
  }
}

const isMissing = (error: unknown): boolean => error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey';
