import type { Clock } from '../clock';
import { validationError } from '../errors';
import { requireLabels } from '../labels/require-labels';
import type { LabelRepository } from '../labels/ports';
import type { BusinessMetrics } from '../metrics/ports';
import type { DocumentRecord } from './document';
import { withoutControls } from '../display-text';
import { safeFilename } from './filename';
import { fileKeys } from '../files/file-keys';
import { detectMimeType, SUPPORTED_MIME_TYPES } from './file-type';
import { newOcrJob, type OcrJob } from '../ocr/jobs';
import type { OcrJobQueue, OcrEngine } from '../ocr/ports';
import { ocrLanguageFor, requireOcrLanguage } from '../ocr/ocr-language';
import type { SettingsRepository } from '../settings/ports';
import type { DocumentRepository } from './ports';
import type { FileStore } from '../files/ports';
import { applyRulesSafely } from '../rules/apply-rules';
import type { RuleApplyDeps } from '../rules/ports';

export interface UploadDeps extends Omit<RuleApplyDeps, 'labels'> {
  documents: DocumentRepository;
  labels: Pick<LabelRepository, 'missing' | 'assign'>;
  files: FileStore;
  ocrQueue: OcrJobQueue;
  clock: Clock;
  sha256(bytes: Uint8Array): string;
  ocrLanguages: OcrEngine['languages'];
  settings: SettingsRepository;
  metrics: BusinessMetrics;
}

export interface UploadInput {
  filename: string;
  bytes: Uint8Array;
  title?: string | undefined;
  labels: string[];
  ocrEnabled: boolean;
  /** OCR languages; the uploader's `ocr_default_language` when not given. */
  language?: string | undefined;
  createdBy: string;
  sourceId?: string | null | undefined;
}

export interface UploadResult {
  id: string;
  message: string;
  ocr_queued: boolean;
}

/** What a new document is made of, whichever way its file arrived. */
export interface NewDocument {
  id: string;
  filename: string;
  title?: string | undefined;
  mimeType: string;
  size: number;
  sha256: string;
  labels: string[];
  ocrEnabled: boolean;
  language: string;
  createdBy: string;
  sourceId?: string | null | undefined;
}

/** The record of a new document: pending OCR, or completed at once when OCR is off. */
export function newDocumentRecord(input: NewDocument, now: string): DocumentRecord {
  const filename = safeFilename(input.filename);
  return {
    id: input.id,
    title: withoutControls(input.title ?? '').trim() || filename.replace(/\.[^.]+$/, '') || filename,
    filename,
    mime_type: input.mimeType,
    size: input.size,
    sha256: input.sha256,
    status: input.ocrEnabled ? 'pending' : 'completed',
    ocr_enabled: input.ocrEnabled,
    language: input.language,
    ocr_confidence: null,
    labels: [...new Set(input.labels)],
    metadata: {},
    source_id: input.sourceId ?? null,
    failure_reason: null,
    created_by: input.createdBy,
    created_at: now,
    updated_at: now,
  };
}

/** The type of a file from its first bytes, or a 400 on `file` naming the accepted types. */
export function requireSupportedType(head: Uint8Array): string {
  const mimeType = detectMimeType(head);
  if (!mimeType) {
    throw validationError('This file type is not supported', [
      { field: 'file', reason: `content is not one of ${SUPPORTED_MIME_TYPES.join(', ')}` },
    ]);
  }
  return mimeType;
}

export const emptyFile = () => validationError('The file is empty', [{ field: 'file', reason: 'is empty (0 bytes)' }]);

/**
 * Stores an uploaded file and its document. The type comes from the bytes; labels must exist; the file is
 * written first and removed again if the record cannot be written, so a failure leaves nothing behind. With OCR
 * enabled the document starts pending and a job is queued; a job that cannot be queued leaves it pending for
 * the stuck-document sweep rather than failing the upload.
 */
export async function uploadDocument(deps: UploadDeps, input: UploadInput): Promise<UploadResult> {
  if (input.bytes.byteLength === 0) throw emptyFile();
  const mimeType = requireSupportedType(input.bytes);
  await requireLabels(deps.labels, input.labels);
  const language = await ocrLanguageFor(deps, input.createdBy, input.language);
  if (input.ocrEnabled) await requireOcrLanguage(deps, language);
  const document = newDocumentRecord(
    { ...input, language, id: crypto.randomUUID(), mimeType, size: input.bytes.byteLength, sha256: deps.sha256(input.bytes) },
    deps.clock.now().toISOString(),
  );
  await deps.files.put(fileKeys.original(document.id), input.bytes, mimeType);
  return registerDocument(deps, document);
}

/**
 * Records a document whose original file is already stored, with its OCR job, and queues the job. If the
 * record cannot be written the stored files are removed, so nothing half-written stays behind. A job that
 * cannot be queued stays queued in the table, and the stuck-job sweep sends it again. The search index and
 * the connected clients (`document_created`) follow the record from the table's stream. Every new
 * document (upload, presigned ingest, source sync) comes through here and is counted (`DocumentsIngested`), and
 * gets the labels of the rules on its filename and title (a failure of those is logged, never the upload's).
 */
export async function registerDocument(
  deps: Pick<UploadDeps, 'documents' | 'files' | 'ocrQueue' | 'metrics'> & RuleApplyDeps,
  document: DocumentRecord,
): Promise<UploadResult> {
  const job = document.ocr_enabled ? newOcrJob(document, 'normal', document.created_at) : undefined;
  try {
    await deps.documents.create(document, job);
  } catch (error) {
    await deps.files.deletePrefix(fileKeys.prefix(document.id)).catch(() => undefined);
    throw error;
  }
  deps.metrics.count('DocumentsIngested');
  await applyRulesSafely(deps, document, 'ingest');
  const queued = job !== undefined && (await enqueue(deps.ocrQueue, job));
  return {
    id: document.id,
    message: document.ocr_enabled ? 'Document uploaded; OCR queued' : 'Document uploaded',
    ocr_queued: queued,
  };
}

async function enqueue(queue: OcrJobQueue, job: OcrJob): Promise<boolean> {
  try {
    await queue.enqueue({ documentId: job.document_id, run: job.run, priority: job.priority });
    return true;
  } catch {
    return false;
  }
}
