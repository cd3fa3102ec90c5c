import type { Clock } from '../clock';
import type { DocumentRecord } from '../documents/document';
import type { DocumentRepository } from '../documents/ports';
import { fileKeys } from '../files/file-keys';
import type { FileStore } from '../files/ports';
import type { LabelRepository } from '../labels/ports';
import type { RuleRepository } from '../rules/ports';
import type { SourceRepository } from '../sources/ports';
import { monthOf } from '../usage/usage';
import type { UsageRepository } from '../usage/ports';
import type { User } from '../users/user';
import { toPublicUser } from '../users/user';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  COLLECTIONS,
  entryNames,
  MANIFEST_ENTRY,
  type ArchiveManifest,
  type Collection,
  type ManifestEntry,
} from './archive-format';
import { archiveKeys, type ExportJob } from './jobs';
import { HashingStream, PartBuilder, sha256Of } from './json-lines';
import type { ArchiveCodec, ArchiveSink, ArchiveStore, AuditTrailReader, PortabilityJobRepository } from './ports';
import { portableDocument, portableRule, portableSource, portableWebhook } from './records';

/** What an export reads and writes: the workspace's stores, its part of the bucket, and the archive format. */
export interface ExportDeps {
  workspaceId: string;
  clock: Clock;
  portabilityJobs: PortabilityJobRepository;
  archives: ArchiveStore;
  codec: ArchiveCodec;
  documents: Pick<DocumentRepository, 'scan' | 'getContent' | 'list'>;
  files: Pick<FileStore, 'get'>;
  labels: Pick<LabelRepository, 'list'>;
  sources: Pick<SourceRepository, 'list'>;
  rules: Pick<RuleRepository, 'list'>;
  /** The workspace's webhooks (the webhooks area's repository; each record carries its sealed `secrets`). */
  webhooks: { list(): Promise<{ secrets: unknown }[]> };
  /** The workspace's name, creation, and members. */
  workspace: () => Promise<{ name: string; created_at: string } | null>;
  members: () => Promise<User[]>;
  usage: Pick<UsageRepository, 'month'>;
  /** The audit log where the audit area provides it; without it the archive's `audit` is empty. */
  audit?: AuditTrailReader | undefined;
  /** Where a failure's cause is logged (the job shows only its reason). */
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** Progress is recorded after each part of documents, and at least this often while one large file is written. */
const PROGRESS_EVERY_MS = 2000;

/**
 * Runs an export: writes the workspace's archive to `exports/<id>.tar.gz` of its part of the bucket, streaming
 * (one part of records and one file chunk held at a time), recording progress as it goes, then marks the export
 * completed with the archive's size and SHA-256. A run of an export that finished does nothing; a failure marks
 * it failed with the reason and removes the partial archive.
 */
export async function runExport(deps: ExportDeps, exportId: string): Promise<'completed' | 'failed' | 'skipped'> {
  const job = await deps.portabilityJobs.getExport(exportId);
  if (!job || job.state === 'completed' || job.state === 'failed') return 'skipped';
  const total = (await deps.documents.list({ page: 1, perPage: 1, sort: 'created_at', order: 'asc' })).pagination.total;
  await deps.portabilityJobs.updateExport(exportId, { state: 'running', documents_total: total, documents_done: 0, bytes_done: 0, updated_at: now(deps) });
  const key = archiveKeys.export(exportId);
  try {
    const stored = await deps.archives.write(key, deps.codec.write((sink) => writeEntries(deps, job, sink, total)), 'application/gzip');
    await deps.portabilityJobs.updateExport(exportId, {
      state: 'completed',
      archive_key: key,
      archive_size: stored.size,
      archive_sha256: stored.sha256,
      finished_at: now(deps),
      updated_at: now(deps),
    });
    return 'completed';
  } catch (error) {
    deps.log('portability: an export failed', { export_id: exportId, error });
    await deps.archives.delete(key).catch(() => undefined);
    await deps.portabilityJobs.updateExport(exportId, { state: 'failed', failure_reason: reasonOf(error), finished_at: now(deps), updated_at: now(deps) });
    return 'failed';
  }
}

const now = (deps: { clock: Clock }) => deps.clock.now().toISOString();
const reasonOf = (error: unknown) => (error instanceof ExportError ? error.message : 'internal_error: the export could not be written');

/** A failure of the export that names its cause (anything else is reported as an internal error). */
class ExportError extends Error {}

async function writeEntries(deps: ExportDeps, job: ExportJob, sink: ArchiveSink, total: number): Promise<void> {
  const entries: ManifestEntry[] = [];
  const counts = { ...(Object.fromEntries(COLLECTIONS.map((c) => [c, 0])) as Record<Collection, number>), files: 0 };
  const partIndex = Object.fromEntries(COLLECTIONS.map((c) => [c, 0])) as Record<Collection, number>;
  const addBytes = async (name: string, bytes: Uint8Array) => {
    entries.push({ name, size: bytes.byteLength, sha256: sha256Of(bytes) });
    await sink.add(name, bytes.byteLength, bytes);
  };
  const takePart = async (collection: Collection, builder: PartBuilder) => {
    counts[collection] += builder.records;
    partIndex[collection] += 1;
    await addBytes(entryNames.part(collection, partIndex[collection]), builder.take());
  };
  const writeCollection = async (collection: Collection, records: AsyncIterable<unknown> | Iterable<unknown>) => {
    const builder = new PartBuilder();
    for await (const record of records) if (builder.push(record)) await takePart(collection, builder);
    if (builder.records) await takePart(collection, builder);
  };

  const workspace = await deps.workspace();
  await writeCollection('labels', await deps.labels.list());
  await writeCollection('sources', (await deps.sources.list()).map(portableSource));
  await writeCollection('users', (await deps.members()).map(toPublicUser));
  await writeCollection('rules', (await deps.rules.list()).map(portableRule));
  await writeCollection('webhooks', (await deps.webhooks.list()).map(portableWebhook));
  await writeCollection('usage', usageRows(deps, workspace?.created_at ?? deps.clock.now().toISOString()));
  await writeCollection('audit', deps.audit?.records() ?? []);

  // Documents: a part of records, then the original file of each document in it.
  let done = 0;
  let bytes = 0;
  let lastProgress = Date.now();
  const progress = async (force: boolean) => {
    if (!force && Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = Date.now();
    await deps.portabilityJobs.updateExport(job.id, { documents_done: done, bytes_done: bytes, documents_total: Math.max(total, done), updated_at: now(deps) });
  };
  const builder = new PartBuilder();
  let batch: DocumentRecord[] = [];
  const flush = async () => {
    await takePart('documents', builder);
    for (const document of batch) {
      bytes += await writeFile(deps, sink, entries, document);
      counts.files += 1;
      done += 1;
      await progress(false);
    }
    batch = [];
    await progress(true);
  };
  for await (const document of deps.documents.scan()) {
    batch.push(document);
    if (builder.push(portableDocument(document, await textOf(deps, document.id)))) await flush();
  }
  if (builder.records) await flush();

  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    format_version: ARCHIVE_FORMAT_VERSION,
    created_at: now(deps),
    workspace: { id: deps.workspaceId, name: workspace?.name ?? '' },
    counts,
    entries,
  };
  const manifestBytes = new TextEncoder().encode(JSON.stringify(manifest));
  await sink.add(MANIFEST_ENTRY, manifestBytes.byteLength, manifestBytes);
}

/** Streams one original file into the archive, hashing it on the way; its size. */
async function writeFile(deps: ExportDeps, sink: ArchiveSink, entries: ManifestEntry[], document: DocumentRecord): Promise<number> {
  const name = entryNames.file(document.id);
  const object = await deps.archives.read(fileKeys.original(document.id));
  if (!object) throw new ExportError(`missing_file: the file of document ${document.id} is not in storage`);
  const body = new HashingStream(object.body);
  await sink.add(name, object.size, body);
  entries.push({ name, size: body.size, sha256: body.sha256() });
  return body.size;
}

async function textOf(deps: ExportDeps, documentId: string): Promise<string> {
  const content = await deps.documents.getContent(documentId);
  if ('text' in content) return content.text;
  return new TextDecoder().decode((await deps.files.get(content.text_object)) ?? new Uint8Array());
}

/** The workspace's usage, a row per month from its creation to now. */
async function* usageRows(deps: ExportDeps, createdAt: string) {
  const last = monthOf(deps.clock.now());
  for (let month = monthOf(createdAt); month <= last; month = nextMonth(month)) {
    yield { month, ...(await deps.usage.month(deps.workspaceId, month)) };
  }
}

const nextMonth = (month: string): string => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
};
