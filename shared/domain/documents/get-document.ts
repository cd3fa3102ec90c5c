import { AppError, notFound } from '../errors';
import { toSummary, type DocumentView } from './document';
import type { DocumentRepository, PendingUploadRepository } from './ports';
import type { FileStore } from '../files/ports';

/** A document with its extracted text. */
export async function getDocument(
  deps: { documents: DocumentRepository; uploads: PendingUploadRepository; files: FileStore },
  id: string,
): Promise<DocumentView> {
  const [record, stored] = await Promise.all([deps.documents.get(id), deps.documents.getContent(id)]);
  if (!record) throw await missingDocument(deps, id);
  const content = 'text' in stored ? stored.text : new TextDecoder().decode((await deps.files.get(stored.text_object)) ?? new Uint8Array());
  return { ...toSummary(record), content, pages_ocred_by_engine: record.pages_ocred_by_engine ?? null };
}

/**
 * The 404 of a document id that belongs to an upload not yet ingested: it says whether the file is still
 * awaited or was refused (and why), so that a client polling for its document learns the outcome.
 */
export async function missingDocument(deps: { uploads: PendingUploadRepository }, id: string): Promise<AppError> {
  const pending = await deps.uploads.get(id);
  const error = notFound('Document', id);
  if (!pending) return error;
  const upload = pending.state === 'rejected' ? { state: 'rejected', reason: pending.reason } : { state: 'awaiting_file', expires_at: pending.expires_at };
  return new AppError(error.code, pending.state === 'rejected' ? 'The uploaded file was refused' : 'The file has not been uploaded yet', {
    ...error.details,
    upload,
  });
}
