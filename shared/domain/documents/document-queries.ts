import { notFound } from '../errors';
import { pageOf, type Page } from '../pagination';
import { toSummary, type DocumentSummary, type DocumentView } from './document';
import { fileKeys } from '../files/file-keys';
import { missingDocument } from './large-upload';
import { isPlainListing, type DocumentListingIndex, type DocumentQuery, type DocumentRepository, type PendingUploadRepository } from './ports';
import type { FileStore } from '../files/ports';

/**
 * One page of documents, without their text. The table serves the first page of the plain listing from its own
 * index, reading only that page; deeper pages and filtered or sorted listings go to the listing index when the
 * runtime has one (it finds the page's ids, the table gives their records), else to the table, which then reads
 * every row up to the page (or every row).
 */
export async function listDocuments(
  deps: { documents: DocumentRepository; listingIndex?: DocumentListingIndex | undefined },
  query: DocumentQuery,
): Promise<Page<DocumentSummary>> {
  if ((!isPlainListing(query) || query.page > 1) && deps.listingIndex) {
    const found = await deps.listingIndex.list(query);
    if (found) return pageOf((await deps.documents.getMany(found.ids)).map(toSummary), query, found.total);
  }
  const page = await deps.documents.list(query);
  return { ...page, data: page.data.map(toSummary) };
}

/** A document with its extracted text. */
export async function getDocument(
  deps: { documents: DocumentRepository; uploads: PendingUploadRepository; files: FileStore },
  id: string,
): Promise<DocumentView> {
  const [record, stored] = await Promise.all([deps.documents.get(id), deps.documents.getContent(id)]);
  if (!record) throw await missingDocument(deps, id);
  const content = 'text' in stored ? stored.text : new TextDecoder().decode((await deps.files.get(stored.text_object)) ?? new Uint8Array());
  return { ...toSummary(record), content };
}

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
