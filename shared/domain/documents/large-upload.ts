import type { Clock } from '../clock';
import { AppError, notFound } from '../errors';
import type { LabelRepository } from '../labels/label';
import type { BusinessMetrics } from '../metrics/ports';
import { requireLabels } from '../labels/use-cases';
import { stagedUploadId } from './document';
import { fileKeys } from '../files/file-keys';
import { detectMimeType, SUPPORTED_MIME_TYPES } from './file-type';
import type { OcrJobQueue } from '../ocr/jobs';
import type { OcrEngine } from '../ocr/ports';
import { ocrLanguageFor, requireOcrLanguage } from '../ocr/queue-control';
import type { SettingsRepository } from '../settings/settings';
import type { DocumentRepository, PendingUpload, PendingUploadRepository } from './ports';
import type { FileStore } from '../files/ports';
import { newDocumentRecord, registerDocument, safeFilename } from './upload-document';

/** The P limit on a document's size. */
export const MAX_DOCUMENT_BYTES = 500 * 1024 * 1024;
/** How long an upload URL works: long enough for 500 MB on a slow line, short enough not to linger. */
export const UPLOAD_URL_SECONDS = 3600;
/** A refused or abandoned upload is forgotten this long after its URL expired. */
export const PENDING_UPLOAD_RETENTION_SECONDS = 86_400;

export interface UploadUrlDeps {
  uploads: PendingUploadRepository;
  labels: Pick<LabelRepository, 'missing'>;
  files: FileStore;
  clock: Clock;
  ocrLanguages: OcrEngine['languages'];
  settings: SettingsRepository;
}

export interface UploadUrlRequest {
  filename: string;
  size: number;
  title?: string | undefined;
  labels: string[];
  ocrEnabled: boolean;
  /** OCR languages; the uploader's `ocr_default_language` when not given. */
  language?: string | undefined;
  createdBy: string;
}

export interface UploadUrlGrant {
  document_id: string;
  upload_url: string;
  method: 'PUT';
  /**
   * Headers the PUT must carry (none beyond the Content-Length every client sends, which must equal the
   * announced size; the type is detected from the bytes, as for multipart uploads).
   */
  headers: Record<string, string>;
  max_size: number;
  expires_at: string;
}

/**
 * Announces a large upload and returns a presigned PUT for it. The file goes to a staging key; when it lands,
 * the bucket's event runs {@link ingestUploadedFile}, which checks it like a multipart upload and only then
 * makes it a document, under the id returned here.
 */
export async function requestUploadUrl(deps: UploadUrlDeps, request: UploadUrlRequest): Promise<UploadUrlGrant> {
  await requireLabels(deps.labels, request.labels);
  const language = await ocrLanguageFor(deps, request.createdBy, request.language);
  if (request.ocrEnabled) await requireOcrLanguage(deps, language);
  const id = crypto.randomUUID();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString();
  // The URL takes only the announced size: S3 refuses any other before a byte is stored.
  const url = await deps.files.uploadUrl(fileKeys.staged(id), UPLOAD_URL_SECONDS, request.size);
  await deps.uploads.create({
    id,
    filename: safeFilename(request.filename),
    title: request.title?.trim() || null,
    size: request.size,
    labels: [...new Set(request.labels)],
    ocr_enabled: request.ocrEnabled,
    language,
    created_by: request.createdBy,
    created_at: now.toISOString(),
    expires_at: expiresAt,
    state: 'awaiting_file',
    reason: null,
  });
  return { document_id: id, upload_url: url, method: 'PUT', headers: {}, max_size: MAX_DOCUMENT_BYTES, expires_at: expiresAt };
}

export interface IngestDeps {
  uploads: PendingUploadRepository;
  documents: DocumentRepository;
  labels: Pick<LabelRepository, 'missing'>;
  files: FileStore;
  ocrQueue: OcrJobQueue;
  clock: Clock;
  metrics: BusinessMetrics;
}

export type IngestOutcome = 'created' | 'rejected' | 'ignored';

/** Bytes read for type detection: a PDF header may sit anywhere in the first KB. */
const HEAD_BYTES = 4096;

/**
 * Turns a staged file into a document: the file must have the announced size and a supported type (from its
 * bytes). A refused file is deleted and the refusal kept on the pending upload for the client to read.
 * Idempotent, as storage events may arrive twice: a key seen before, or not staged by us, is ignored.
 */
export async function ingestUploadedFile(deps: IngestDeps, key: string): Promise<IngestOutcome> {
  const id = stagedUploadId(key);
  if (!id) return 'ignored';
  const pending = await deps.uploads.get(id);
  if (!pending || pending.state === 'rejected') {
    // Not announced, expired and forgotten, or already refused: nothing may keep the file.
    if (!(await deps.documents.get(id))) await deps.files.deletePrefix(key);
    return 'ignored';
  }
  const file = await deps.files.inspect(key, HEAD_BYTES);
  if (!file) return 'ignored';
  const refusal = refusalOf(pending, file.size, file.head);
  if (refusal) {
    await deps.files.deletePrefix(key);
    await deps.uploads.reject(id, refusal);
    return 'rejected';
  }
  const mimeType = detectMimeType(file.head)!;
  // Labels deleted while the file was on its way are dropped rather than refusing the whole upload.
  const gone = new Set(await deps.labels.missing(pending.labels));
  const record = newDocumentRecord(
    {
      id,
      filename: pending.filename,
      title: pending.title ?? undefined,
      mimeType,
      size: file.size,
      sha256: file.sha256,
      labels: pending.labels.filter((label) => !gone.has(label)),
      ocrEnabled: pending.ocr_enabled,
      language: pending.language,
      createdBy: pending.created_by,
    },
    deps.clock.now().toISOString(),
  );
  await deps.files.move(key, fileKeys.original(id), mimeType);
  await registerDocument(deps, record);
  await deps.uploads.delete(id);
  return 'created';
}

function refusalOf(pending: PendingUpload, size: number, head: Uint8Array): string | null {
  if (size === 0) return 'the file is empty (0 bytes)';
  if (size !== pending.size) return `the file has ${size} bytes, not the ${pending.size} announced`;
  if (!detectMimeType(head)) return `content is not one of ${SUPPORTED_MIME_TYPES.join(', ')}`;
  return null;
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
