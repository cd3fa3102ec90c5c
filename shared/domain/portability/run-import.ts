import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { DocumentRecord } from '../documents/document';
import type { DocumentRepository } from '../documents/ports';
import { fileKeys } from '../files/file-keys';
import type { FileStore } from '../files/ports';
import type { LabelRepository } from '../labels/ports';
import { INLINE_TEXT_BYTES } from '../ocr/process-ocr-job';
import { MAX_RULES_PER_WORKSPACE, type Rule } from '../rules/rule';
import type { RuleRepository } from '../rules/ports';
import type { CredentialVault, SourceRepository } from '../sources/ports';
import type { SourceRecord } from '../sources/source';
import { ArchiveRejectedError, entryKind, PART_READ_MAX_BYTES } from './archive-format';
import type { ImportJob, ImportResult } from './jobs';
import { collect } from './json-lines';
import type { ArchiveCodec, ArchiveStore, ImportedTexts, PortabilityJobRepository } from './ports';
import { documentFields, linesOf, type PortableDocument, type PortableLabel, type PortableSource, type PortableUser } from './records';
import { validateArchive } from './validate-archive';
import { isWorkspaceEmpty } from './workspace-emptiness';

/** What an import reads and writes. */
export interface ImportDeps {
  workspaceId: string;
  clock: Clock;
  portabilityJobs: PortabilityJobRepository;
  archives: ArchiveStore;
  codec: ArchiveCodec;
  documents: Pick<DocumentRepository, 'create' | 'delete' | 'list'>;
  texts: ImportedTexts;
  files: Pick<FileStore, 'putStream' | 'put' | 'deletePrefix'>;
  labels: Pick<LabelRepository, 'create' | 'delete' | 'list'>;
  sources: Pick<SourceRepository, 'create' | 'delete' | 'list'>;
  rules: Pick<RuleRepository, 'create' | 'delete' | 'list'>;
  vault: Pick<CredentialVault, 'seal'>;
  /** Where a failure's cause is logged (the job shows only its reason). */
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** What an imported document whose OCR had not finished says: it is failed, and may be retried. */
export const INTERRUPTED_OCR_REASON = 'OCR had not finished when the workspace was exported';

const PROGRESS_EVERY_DOCUMENTS = 50;

/**
 * Runs an import: reads the archive once to validate it whole (nothing written), then again to write its labels,
 * sources (disabled, without a password: the archive has none), rules, documents with their texts (no OCR runs
 * again) and files, byte for byte. Users and webhooks are not imported; the result lists them. A refused archive
 * writes nothing; a failure while writing removes what this import wrote. The archive is deleted at the end.
 */
export async function runImport(deps: ImportDeps, importId: string): Promise<'completed' | 'failed' | 'skipped'> {
  const job = await deps.portabilityJobs.getImport(importId);
  if (!job || !['queued', 'validating', 'importing'].includes(job.state)) return 'skipped';
  const fail = async (reason: string) => {
    await deps.portabilityJobs.updateImport(importId, { state: 'failed', failure_reason: reason, finished_at: now(deps), updated_at: now(deps) });
    await deps.archives.delete(job.archive_key).catch(() => undefined);
    return 'failed' as const;
  };
  if (!(await deps.portabilityJobs.holdImportSlot(importId))) return fail('import_running: another import into this workspace is running');
  try {
    return await validateAndWrite(deps, job, fail);
  } finally {
    await deps.portabilityJobs.releaseImportSlot(importId);
  }
}

async function validateAndWrite(deps: ImportDeps, job: ImportJob, fail: (reason: string) => Promise<'failed'>): Promise<'completed' | 'failed'> {
  const importId = job.id;
  // A run that died while writing (its process was killed) left part of the archive: it goes before anything else.
  if (job.state === 'importing') await undoArchive(deps, job);
  if (!(await isWorkspaceEmpty(deps))) return fail('workspace_not_empty: the workspace holds documents, labels, sources or rules');
  await deps.portabilityJobs.updateImport(importId, { state: 'validating', updated_at: now(deps) });
  let documentsTotal: number;
  try {
    const archive = await deps.archives.read(job.archive_key);
    if (!archive) return await fail('missing_entry: the archive was not uploaded');
    documentsTotal = (await validateArchive(deps.codec, archive.body)).manifest.counts.documents;
  } catch (error) {
    if (error instanceof ArchiveRejectedError) return fail(error.message);
    throw error;
  }
  await deps.portabilityJobs.updateImport(importId, { state: 'importing', documents_total: documentsTotal, documents_done: 0, updated_at: now(deps) });
  const written = new Written();
  try {
    const result = await writeArchive(deps, job, written);
    await deps.portabilityJobs.updateImport(importId, { state: 'completed', result, documents_done: result.documents, finished_at: now(deps), updated_at: now(deps) });
    await deps.archives.delete(job.archive_key).catch(() => undefined);
    return 'completed';
  } catch (error) {
    if (!(error instanceof ArchiveRejectedError)) deps.log('portability: an import failed while writing; removing what it wrote', { import_id: importId, error });
    await written.undo(deps);
    return fail(
      error instanceof ArchiveRejectedError
        ? error.message
        : error instanceof AppError
          ? `${String(error.details['reason'] ?? error.code)}: ${error.message}; nothing of the import was kept`
          : 'internal_error: the import failed while writing; nothing of it was kept',
    );
  }
}

const now = (deps: { clock: Clock }) => deps.clock.now().toISOString();

/**
 * Removes whatever of the archive's documents, rules, sources and labels the workspace holds: what an earlier run
 * of this import wrote before it died (the workspace was empty, and held for this import, when it began).
 */
async function undoArchive(deps: ImportDeps, job: ImportJob): Promise<void> {
  const archive = await deps.archives.read(job.archive_key);
  if (!archive) return;
  const written = new Written();
  for await (const entry of deps.codec.read(archive.body)) {
    const kind = entryKind(entry.name);
    if (kind?.kind !== 'part') continue;
    const body = await collect(entry.body, PART_READ_MAX_BYTES);
    if (!body) continue;
    const ids = linesOf(body).map((line) => String((JSON.parse(line) as { id?: unknown }).id));
    if (kind.collection === 'documents') written.documents.push(...ids);
    if (kind.collection === 'labels') written.labels.push(...ids);
    if (kind.collection === 'sources') written.sources.push(...ids);
    if (kind.collection === 'rules') written.rules.push(...ids);
    if (written.documents.length) await written.undoDocuments(deps);
  }
  await written.undo(deps);
}

/** What an import wrote so far, to remove again if it cannot finish. */
class Written {
  labels: string[] = [];
  sources: string[] = [];
  rules: string[] = [];
  /** Documents whose file (and perhaps record) were written. */
  documents: string[] = [];

  async undo(deps: ImportDeps): Promise<void> {
    await this.undoDocuments(deps);
    for (const id of this.rules) await deps.rules.delete(id);
    for (const id of this.sources) await deps.sources.delete(id);
    for (const id of this.labels) await deps.labels.delete(id);
  }

  /** Removes the documents (records, texts, files) and forgets them. */
  async undoDocuments(deps: ImportDeps): Promise<void> {
    for (const id of this.documents.reverse()) {
      await deps.documents.delete(id);
      await deps.files.deletePrefix(fileKeys.prefix(id));
    }
    this.documents = [];
  }
}

async function writeArchive(deps: ImportDeps, job: ImportJob, written: Written): Promise<ImportResult> {
  const archive = await deps.archives.read(job.archive_key);
  if (!archive) throw new ArchiveRejectedError('missing_entry', 'the archive is gone');
  const users: PortableUser[] = [];
  let webhooks = 0;
  let files = 0;
  /** The documents of the last part whose files have not come yet. */
  let part = new Map<string, PortableDocument>();
  for await (const entry of deps.codec.read(archive.body)) {
    const kind = entryKind(entry.name);
    if (kind?.kind === 'file') {
      const document = part.get(kind.documentId);
      if (!document) throw new ArchiveRejectedError('unexpected_entry', entry.name);
      part.delete(kind.documentId);
      written.documents.push(document.id);
      await writeDocument(deps, document, entry.body);
      files += 1;
      if (written.documents.length % PROGRESS_EVERY_DOCUMENTS === 0) {
        await deps.portabilityJobs.updateImport(job.id, { documents_done: written.documents.length, updated_at: now(deps) });
      }
      continue;
    }
    const body = await collect(entry.body, PART_READ_MAX_BYTES);
    if (!body || kind?.kind !== 'part') continue;
    const records = linesOf(body).map((line) => JSON.parse(line) as Record<string, unknown>);
    switch (kind.collection) {
      case 'labels':
        for (const label of records as unknown as PortableLabel[]) {
          await deps.labels.create({ ...label, document_count: 0 });
          written.labels.push(label.id);
        }
        break;
      case 'sources':
        for (const source of records as unknown as PortableSource[]) {
          await deps.sources.create(await importedSource(deps, source));
          written.sources.push(source.id);
        }
        break;
      case 'rules':
        for (const rule of records as unknown as Omit<Rule, 'apply'>[]) {
          await deps.rules.create({ ...rule, apply: null }, MAX_RULES_PER_WORKSPACE);
          written.rules.push(rule.id);
        }
        break;
      case 'users':
        users.push(...(records as unknown as PortableUser[]));
        break;
      case 'webhooks':
        webhooks += records.length;
        break;
      case 'documents':
        part = new Map((records as unknown as PortableDocument[]).map((document) => [document.id, document]));
        break;
      default:
        // Usage rows and the audit log are the exporting workspace's history: kept in the archive, not imported.
        break;
    }
  }
  return {
    documents: written.documents.length,
    files,
    labels: written.labels.length,
    sources: written.sources.length,
    rules: written.rules.length,
    users_not_imported: users.map(({ id, username, email, role }) => ({ id, username, email, role })),
    webhooks_not_imported: webhooks,
  };
}

/** A source as an import stores it: disabled, with an empty password sealed, until an admin gives it one. */
async function importedSource(deps: ImportDeps, source: PortableSource): Promise<SourceRecord> {
  return {
    ...source,
    enabled: false,
    password_sealed: await deps.vault.seal('', { workspaceId: deps.workspaceId, sourceId: source.id }),
    error: null,
    next_sync: null,
    current_job_id: null,
    last_job_id: null,
  };
}

/** The file (streamed, byte for byte), then the text, then the record: the record's insert is what the views see. */
async function writeDocument(deps: ImportDeps, document: PortableDocument, body: AsyncIterable<Uint8Array>): Promise<void> {
  const { text } = document;
  // Only the fields an archive carries: the searchable PDF's state (its file is not in the archive) and anything
  // else a line holds are dropped, so nothing but a document's own fields reaches the table.
  const fields = documentFields(document as unknown as Record<string, unknown>);
  const stored = await deps.files.putStream(fileKeys.original(document.id), body, { contentType: document.mime_type, maxBytes: document.size, headBytes: 0 });
  if (stored.sha256 !== document.sha256) throw new ArchiveRejectedError('checksum_mismatch', `files/${document.id}/original changed between the checks and the write`);
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength <= INLINE_TEXT_BYTES) {
    await deps.texts.put(document.id, { text });
  } else {
    await deps.files.put(fileKeys.text(document.id), bytes, 'text/plain; charset=utf-8');
    await deps.texts.put(document.id, { text_object: fileKeys.text(document.id) });
  }
  const unfinished = document.status === 'pending' || document.status === 'processing';
  const record: DocumentRecord = {
    ...fields,
    ocr_confidence: fields.ocr_confidence ?? null,
    source_id: fields.source_id ?? null,
    failure_reason: fields.failure_reason ?? null,
    ...(unfinished ? { status: 'failed' as const, failure_reason: INTERRUPTED_OCR_REASON } : {}),
  };
  await deps.documents.create(record);
}
