import type { Clock } from '../clock';
import type { LabelRepository } from '../labels/ports';
import { requireLabels } from '../labels/require-labels';
import { fileKeys } from '../files/file-keys';
import type { OcrEngine } from '../ocr/ports';
import { ocrLanguageFor, requireOcrLanguage } from '../ocr/ocr-language';
import type { SettingsRepository } from '../settings/ports';
import type { PendingUploadRepository } from './ports';
import type { FileStore } from '../files/ports';
import { withoutControls } from '../display-text';
import { safeFilename } from './filename';
import { MAX_DOCUMENT_BYTES } from './document';

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
    title: withoutControls(request.title ?? '').trim() || null,
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
