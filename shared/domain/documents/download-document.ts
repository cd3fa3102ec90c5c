import { notFound } from '../errors';
import { fileKeys } from '../files/file-keys';
import type { DocumentRepository } from './ports';
import type { FileStore } from '../files/ports';

/** Responses above this go out as a redirect to a presigned URL: Lambda answers at most 6 MB, base64 included. */
export const INLINE_DOWNLOAD_LIMIT = 4 * 1024 * 1024;

export type Download =
  | { kind: 'inline'; bytes: Uint8Array; filename: string; mimeType: string }
  | { kind: 'redirect'; url: string };

/** The original file: its bytes when small, a short-lived URL when large. */
export async function downloadDocument(
  deps: { documents: DocumentRepository; files: FileStore },
  id: string,
): Promise<Download> {
  const record = await deps.documents.get(id);
  if (!record) throw notFound('Document', id);
  const key = fileKeys.original(id);
  if (record.size > INLINE_DOWNLOAD_LIMIT) {
    return { kind: 'redirect', url: await deps.files.downloadUrl(key, record.filename, record.mime_type) };
  }
  const bytes = await deps.files.get(key);
  if (!bytes) throw notFound('Document file', id);
  return { kind: 'inline', bytes, filename: record.filename, mimeType: record.mime_type };
}
