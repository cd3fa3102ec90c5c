import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { bucketKey } from '../../../domain/documents/bucket-layout';
import type { ArchiveStore } from '../../../domain/portability/ports';
import { attachmentDisposition } from '../../../http/content-disposition';
import { S3FileStore } from './file-store';

/**
 * One workspace's part of the bucket as exports and imports stream it: reads as the object's body stream,
 * writes in parts (S3FileStore's streamed write), presigned links of a chosen lifetime. Keys are the workspace's
 * own (`exports/…`, `documents/<id>/original`), placed under its prefix as every store of it does.
 */
export class S3ArchiveStore implements ArchiveStore {
  private readonly files: S3FileStore;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly workspaceId: string,
  ) {
    this.files = new S3FileStore(s3, bucket);
  }

  async read(key: string): Promise<{ size: number; body: AsyncIterable<Uint8Array> } | null> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.at(key) }));
      if (!object.Body) return null;
      return { size: object.ContentLength ?? 0, body: object.Body as Readable };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.at(key) }))).ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async write(key: string, chunks: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number; sha256: string }> {
    const { size, sha256 } = await this.files.putStream(this.at(key), chunks, { contentType, maxBytes: Number.MAX_SAFE_INTEGER, headBytes: 0 });
    return { size, sha256 };
  }

  downloadUrl(key: string, filename: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(
      this.s3,
      new GetObjectCommand({ Bucket: this.bucket, Key: this.at(key), ResponseContentDisposition: attachmentDisposition(filename), ResponseContentType: 'application/gzip' }),
      { expiresIn: expiresInSeconds },
    );
  }

  uploadUrl(key: string, expiresInSeconds: number, contentLength: number): Promise<string> {
    // Content-Length is signed: S3 refuses a PUT of any other size before storing a byte.
    return getSignedUrl(this.s3, new PutObjectCommand({ Bucket: this.bucket, Key: this.at(key), ContentLength: contentLength }), {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(['content-length']),
    });
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.at(key) }));
  }

  private at(key: string): string {
    return bucketKey(this.workspaceId, key);
  }
}

const isMissing = (error: unknown): boolean =>
  error instanceof NoSuchKey || ['NoSuchKey', 'NotFound'].includes((error as { name?: string }).name ?? '') || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
