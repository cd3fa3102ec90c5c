import type { Clock } from '../clock';
import type { RuleApplyDeps } from '../rules/ports';
import type { LabelRepository } from '../labels/ports';
import type { BusinessMetrics } from '../metrics/ports';
import { stagedUploadId } from './document';
import { fileKeys } from '../files/file-keys';
import { detectMimeType, SUPPORTED_MIME_TYPES } from './file-type';
import type { OcrJobQueue } from '../ocr/ports';
import type { DocumentRepository, PendingUpload, PendingUploadRepository } from './ports';
import type { FileStore } from '../files/ports';
import { newDocumentRecord, registerDocument } from './upload-document';

/** The rules' parts (RuleApplyDeps) label the new document by its filename and title. */
export interface IngestDeps extends Omit<RuleApplyDeps, 'labels'> {
  uploads: PendingUploadRepository;
  documents: DocumentRepository;
  labels: Pick<LabelRepository, 'missing' | 'assign'>;
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
