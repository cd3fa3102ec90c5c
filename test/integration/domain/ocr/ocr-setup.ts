import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import { newOcrJob, type OcrPriority } from '../../../../shared/domain/ocr/jobs';
import { aDocumentRecord } from '../../../support/builders';
import type { WorkspaceStores } from '../workspace-stores';

/** A document with its first OCR run queued (at `queuedAt`, by default now), as an upload leaves it. */
export async function aQueuedDocument(w: WorkspaceStores, options: { priority?: OcrPriority; queuedAt?: string; language?: string } = {}): Promise<DocumentRecord> {
  const document = aDocumentRecord({ created_at: options.queuedAt ?? new Date().toISOString(), language: options.language ?? 'eng' });
  await w.documents.create(document, newOcrJob(document, options.priority ?? 'normal', document.created_at));
  return document;
}

/** Takes the document's first run as a worker would, at `now`. */
export const claim = (w: WorkspaceStores, document: DocumentRecord, now = new Date().toISOString()) =>
  w.ocrJobs.claim({ documentId: document.id, run: 1, priority: 'normal' }, now, now);

/** Completes the document's first run (taking it first) after `seconds` of processing. */
export async function completeRun(w: WorkspaceStores, document: DocumentRecord, seconds: number, now = new Date().toISOString()): Promise<void> {
  await claim(w, document, now);
  await w.ocrJobs.complete(
    document.id,
    1,
    { text: 'read', confidence: 0.9, pages: 1, processingTime: seconds, pagesByEngine: { tesseract: 1 }, content: { text: 'read' }, readSha256: document.sha256 },
    now,
  );
}
