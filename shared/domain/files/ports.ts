/**
 * A workspace's files in object storage: the store's port, and the stored forms of a document's text. Below
 * documents, OCR, sources and search, which all read or write files.
 */

/** A document's extracted text: inline, or in an object when it is too large for a table item. */
export type DocumentContent = { text: string } | { text_object: string };

/** Files of documents in object storage. */
export interface FileStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Stores bytes as they arrive, holding at most one part (a few MB) at a time, and returns what {@link inspect}
   * would (size, first `headBytes` bytes, SHA-256), read on the way in. More than `maxBytes` aborts the write
   * (nothing is kept) with a {@link FileTooLargeError}.
   */
  putStream(key: string, chunks: AsyncIterable<Uint8Array>, options: { contentType: string; maxBytes: number; headBytes: number }): Promise<StoredFileInfo>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Deletes every object whose key starts with the prefix. */
  deletePrefix(prefix: string): Promise<void>;
  /** A short-lived URL that downloads the object as an attachment named `filename`. */
  downloadUrl(key: string, filename: string, contentType: string): Promise<string>;
  /**
   * A URL valid for `expiresInSeconds` that stores the body of one HTTP PUT at `key`, if the body is exactly
   * `contentLength` bytes (the length is part of the signature).
   */
  uploadUrl(key: string, expiresInSeconds: number, contentLength: number): Promise<string>;
  /**
   * Reads the object once, streaming: its size, its first `headBytes` bytes (for type detection) and its
   * SHA-256. Null when there is no such object.
   */
  inspect(key: string, headBytes: number): Promise<StoredFileInfo | null>;
  /** Moves an object to another key, setting its content type (a server-side copy, then a delete). */
  move(from: string, to: string, contentType: string): Promise<void>;
  /** The object's key in the bucket, for a service that reads the bucket itself (Textract). */
  bucketKey(key: string): string;
}

/** A streamed file went past the size it may have. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

export interface StoredFileInfo {
  size: number;
  head: Uint8Array;
  sha256: string;
}
