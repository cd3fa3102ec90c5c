import { AppError, notFound } from '../errors';
import { fileKeys } from '../files/file-keys';
import type { FileStore } from '../files/ports';
import type { DocumentRecord } from './document';
import { INLINE_DOWNLOAD_LIMIT, type Download } from './download-document';
import type { DocumentRepository } from './ports';

/** Why a document has no searchable PDF to give (`details.reason` of the 404). */
export type MissingSearchablePdfReason =
  | 'ocr_disabled'
  | 'ocr_not_completed'
  | 'ocr_failed'
  | 'no_ocred_pages'
  | 'no_word_positions'
  | 'not_written'
  | 'not_written_yet';

const missing = (record: DocumentRecord): { reason: MissingSearchablePdfReason; message: string } => {
  if (!record.ocr_enabled) return { reason: 'ocr_disabled', message: 'OCR is off for this document, so it has no searchable PDF' };
  if (record.status === 'pending' || record.status === 'processing') {
    return { reason: 'ocr_not_completed', message: 'The searchable PDF is written once OCR completes' };
  }
  if (record.status === 'failed') return { reason: 'ocr_failed', message: 'OCR failed, so the document has no searchable PDF; retry OCR' };
  if (record.searchable_pdf_reason) {
    return { reason: record.searchable_pdf_reason as MissingSearchablePdfReason, message: record.searchable_pdf_message ?? 'The searchable PDF was not written' };
  }
  // Completed, and the worker has not recorded the PDF yet (or the run completed before searchable PDFs existed).
  return { reason: 'not_written_yet', message: 'The searchable PDF is not written yet; a document read before it existed gets one when OCR is retried' };
};

/** `scan.png` → `scan.searchable.pdf`. */
const searchableName = (filename: string): string => `${filename.replace(/\.[^.]*$/, '') || 'document'}.searchable.pdf`;

/**
 * The document's searchable PDF (its pages with the OCR text laid on them): its bytes when small, a short-lived
 * URL when large. 404 NOT_FOUND with `details.reason` (a {@link MissingSearchablePdfReason}) while there is none.
 */
export async function downloadSearchablePdf(deps: { documents: DocumentRepository; files: FileStore }, id: string): Promise<Download> {
  const record = await deps.documents.get(id);
  if (!record) throw notFound('Document', id);
  const key = fileKeys.searchablePdf(id);
  const filename = searchableName(record.filename);
  if (record.searchable_pdf_size !== undefined) {
    if (record.searchable_pdf_size > INLINE_DOWNLOAD_LIMIT) return { kind: 'redirect', url: await deps.files.downloadUrl(key, filename, 'application/pdf') };
    const bytes = await deps.files.get(key);
    if (bytes) return { kind: 'inline', bytes, filename, mimeType: 'application/pdf' };
  }
  const { reason, message } = missing(record);
  throw new AppError('NOT_FOUND', message, { resource: 'Searchable PDF', id, reason });
}
