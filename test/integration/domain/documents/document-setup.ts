import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import type { PendingUpload } from '../../../../shared/domain/documents/ports';
import type { DocumentContent } from '../../../../shared/domain/files/ports';
import { newOcrJob } from '../../../../shared/domain/ocr/jobs';
import { aDocumentRecord } from '../../../support/builders';
import type { WorkspaceStores } from '../workspace-stores';

/** A document stored as an upload leaves it (with a queued OCR job when OCR is on); `record` overrides its fields. */
export async function aStoredDocument(w: WorkspaceStores, record: Partial<DocumentRecord> = {}): Promise<DocumentRecord> {
  const document = aDocumentRecord(record);
  await w.documents.create(document, document.ocr_enabled ? newOcrJob(document, 'normal', document.created_at) : undefined);
  return document;
}

/** Runs the document's first OCR run to completion through the job repository, leaving `content` as its text. */
export async function completeOcr(w: WorkspaceStores, document: DocumentRecord, content: DocumentContent): Promise<void> {
  const now = new Date().toISOString();
  await w.ocrJobs.claim({ documentId: document.id, run: 1, priority: 'normal' }, now, now);
  await w.ocrJobs.complete(document.id, 1, { text: '', confidence: 0.9, pages: 1, processingTime: 1, pagesByEngine: { tesseract: 1 }, content, readSha256: document.sha256 }, now);
}

/** An upload announced by "u-1" for a 10-byte file, awaiting it; override what the test is about. */
export const aPendingUpload = (overrides: Partial<PendingUpload> = {}): PendingUpload => ({
  id: crypto.randomUUID(),
  filename: 'big.pdf',
  title: null,
  size: 10,
  labels: [],
  ocr_enabled: true,
  language: 'eng',
  created_by: 'u-1',
  created_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  state: 'awaiting_file',
  reason: null,
  ...overrides,
});
