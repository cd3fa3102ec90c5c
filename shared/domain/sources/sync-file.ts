import type { RuleApplyDeps } from '../rules/ports';
import type { Clock } from '../clock';
import { fileKeys } from '../files/file-keys';
import { detectMimeType } from '../documents/file-type';
import { MAX_DOCUMENT_BYTES } from '../documents/document';
import type { DocumentRepository } from '../documents/ports';
import { FileTooLargeError, type FileStore, type StoredFileInfo } from '../files/ports';
import { newDocumentRecord, registerDocument } from '../documents/upload-document';
import type { BusinessMetrics } from '../metrics/ports';
import type { OcrJobQueue, OcrJobRepository } from '../ocr/ports';
import type { RememberedFile, SyncStateStore, SyncWorkItem } from './ports';
import { SourceAccessError, type RemoteFolder } from './remote-folder';
import type { SourceRecord } from './source';
import { nameOf, parentOf } from './sync-directory';
import type { SyncCounts } from './sync-job';

/** The rules' parts (RuleApplyDeps) label each new document by its filename and title. */
export interface FileSyncDeps extends RuleApplyDeps {
  documents: DocumentRepository;
  files: FileStore;
  ocrQueue: OcrJobQueue;
  ocrJobs: OcrJobRepository;
  metrics: BusinessMetrics;
  syncState: SyncStateStore;
  clock: Clock;
  /** The OCR language of a user's new documents (their `ocr_default_language`), read once per step. */
  ocrLanguage(userId: string): Promise<string>;
}

/** What became of one file: the count it adds to, and the reason when it was not stored. */
export interface FileOutcome {
  count: keyof SyncCounts;
  reason?: string;
}

/** Bytes read for type detection, as for uploads. */
const HEAD_BYTES = 4096;

type FileWork = Extract<SyncWorkItem, { kind: 'file' }>;

/**
 * Brings one new or changed file into the workspace, through the upload's own checks: streamed from the server
 * to a staging object (never held whole), its type read from its bytes, its SHA-256 computed, 500 MB at most.
 * A new file becomes a document (OCR queued, `document_created` with the source's id); a changed one replaces
 * its document's file and runs OCR again; bytes equal to a document already in the workspace are a duplicate,
 * not stored twice. The outcome is remembered, so the file is not fetched again until it changes; a file that
 * could not be read is not remembered, and its directory is compared again on the next sync.
 */
export async function syncFile(deps: FileSyncDeps, folder: RemoteFolder, source: SourceRecord, item: FileWork): Promise<FileOutcome> {
  // A step that died after storing the document: it exists under the id chosen for this file.
  if (!item.replaces && (await deps.documents.get(item.document_id))) {
    await remember(deps, source, item, item.document_id);
    return { count: 'new' };
  }
  const staged = fileKeys.syncStaged(item.document_id);
  let file: StoredFileInfo;
  try {
    const remote = await folder.read(item.path);
    file = await deps.files.putStream(staged, remote.body, { contentType: 'application/octet-stream', maxBytes: MAX_DOCUMENT_BYTES, headBytes: HEAD_BYTES });
  } catch (error) {
    await deps.files.deletePrefix(staged).catch(() => undefined);
    if (error instanceof FileTooLargeError) return refused(deps, source, item, `larger than the ${MAX_DOCUMENT_BYTES} bytes a document may have`);
    if (error instanceof SourceAccessError) {
      await deps.syncState.distrustDirectory(source.id, parentOf(item.path));
      return { count: 'failed', reason: error.message };
    }
    throw error;
  }
  const mimeType = detectMimeType(file.head);
  if (file.size === 0 || !mimeType) {
    await deps.files.deletePrefix(staged);
    return refused(deps, source, item, file.size === 0 ? 'the file is empty (0 bytes)' : 'the content is not a supported document type');
  }
  const same = await deps.documents.findBySha256(file.sha256);
  if (same) {
    await deps.files.deletePrefix(staged);
    await remember(deps, source, item, same);
    // The file's ETag moved but its bytes did not: nothing changed for its document.
    return same === item.replaces ? { count: 'unchanged' } : { count: 'duplicates', reason: `same content as document ${same}` };
  }
  const replaced = item.replaces ? await deps.documents.get(item.replaces) : null;
  if (replaced) {
    await deps.files.move(staged, fileKeys.original(replaced.id), mimeType);
    await deps.files.deletePrefix(fileKeys.thumbnails(replaced.id));
    const now = deps.clock.now().toISOString();
    await deps.documents.replaceFile(replaced.id, { size: file.size, sha256: file.sha256, mime_type: mimeType }, now);
    if (replaced.ocr_enabled) {
      const job = await deps.ocrJobs.restart(replaced.id, { language: replaced.language, priority: 'normal', by: source.created_by, now });
      // A run queued meanwhile reads the new file when it starts; one processing finds the file replaced when it
      // completes and hands the job on to a new run (see processOcrJob). A lost send is resent by the sweep.
      if (job && job !== 'busy') await deps.ocrQueue.enqueue({ documentId: replaced.id, run: job.run, priority: job.priority }).catch(() => undefined);
    }
    await remember(deps, source, item, replaced.id);
    return { count: 'changed' };
  }
  // A changed file whose document was deleted meanwhile comes back as a new one.
  const id = item.replaces ? crypto.randomUUID() : item.document_id;
  const language = await deps.ocrLanguage(source.created_by);
  const record = newDocumentRecord(
    {
      id,
      filename: nameOf(item.path),
      mimeType,
      size: file.size,
      sha256: file.sha256,
      labels: [],
      ocrEnabled: true,
      language,
      createdBy: source.created_by,
      sourceId: source.id,
    },
    deps.clock.now().toISOString(),
  );
  await deps.files.move(staged, fileKeys.original(id), mimeType);
  await registerDocument(deps, record);
  await remember(deps, source, item, id);
  return { count: 'new' };
}

/** A file the service does not take: remembered (not fetched again until it changes), its document (if any) left alone. */
async function refused(deps: FileSyncDeps, source: SourceRecord, item: FileWork, reason: string): Promise<FileOutcome> {
  await remember(deps, source, item, item.replaces);
  return { count: 'skipped', reason };
}

function remember(deps: FileSyncDeps, source: SourceRecord, item: FileWork, documentId: string | null): Promise<void> {
  const file: RememberedFile = { etag: item.etag, size: item.size, last_modified: item.last_modified, document_id: documentId };
  return deps.syncState.saveFile(source.id, item.path, file);
}
