import type { Clock } from '../clock';
import { AppError, conflict, notFound } from '../errors';
import type { Principal } from '../principal';
import {
  archiveKeys,
  DOWNLOAD_URL_SECONDS,
  IMPORT_UPLOAD_URL_SECONDS,
  type ExportJob,
  type ImportJob,
  type ImportResult,
} from './jobs';
import type { ArchiveStore, PortabilityJobRepository, PortabilityQueue } from './ports';
import { isWorkspaceEmpty, type EmptinessDeps } from './workspace-emptiness';

/** What the export and import routes use: the workspace's jobs, its part of the bucket, the worker's queue. */
export interface PortabilityDeps {
  workspaceId: string;
  clock: Clock;
  portabilityJobs: PortabilityJobRepository;
  portabilityQueue: PortabilityQueue;
  archives: ArchiveStore;
}

/** An export as GET /api/workspace/exports/{id} answers it: the download link once it completed. */
export interface ExportView {
  id: string;
  status: ExportJob['state'];
  progress: { percent: number; documents_done: number; documents_total: number; bytes_done: number };
  created_at: string;
  finished_at: string | null;
  size: number | null;
  sha256: string | null;
  download_url: string | null;
  download_expires_at: string | null;
  failure_reason: string | null;
}

export interface ImportView {
  id: string;
  status: ImportJob['state'];
  progress: { percent: number; documents_done: number; documents_total: number };
  created_at: string;
  finished_at: string | null;
  result: ImportResult | null;
  failure_reason: string | null;
}

/** An import announced: where to PUT the archive, then POST …/start. */
export interface ImportGrant extends ImportView {
  upload_url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires_at: string;
}

const percent = (done: number, total: number, finished: boolean) => (finished ? 100 : total ? Math.min(99, Math.floor((done * 100) / total)) : 0);

/** Starts an export of the caller's workspace: the worker writes its archive. */
export async function startExport(deps: PortabilityDeps, principal: Principal): Promise<ExportView> {
  const at = deps.clock.now().toISOString();
  const job: ExportJob = {
    id: crypto.randomUUID(),
    state: 'queued',
    created_by: principal.userId,
    created_at: at,
    updated_at: at,
    finished_at: null,
    documents_total: 0,
    documents_done: 0,
    bytes_done: 0,
    archive_key: null,
    archive_size: null,
    archive_sha256: null,
    failure_reason: null,
  };
  await deps.portabilityJobs.createExport(job);
  await deps.portabilityQueue.enqueue({ kind: 'export', workspace_id: deps.workspaceId, job_id: job.id });
  return exportView(job, null);
}

/** The export's state and progress; once completed, a download link working for an hour. */
export async function getExport(deps: PortabilityDeps, id: string): Promise<ExportView> {
  const job = await deps.portabilityJobs.getExport(id);
  if (!job) throw notFound('Export', id);
  if (job.state !== 'completed' || !job.archive_key) return exportView(job, null);
  const url = await deps.archives.downloadUrl(job.archive_key, `workspace-export-${job.created_at.slice(0, 10)}.tar.gz`, DOWNLOAD_URL_SECONDS);
  return exportView(job, { url, expiresAt: new Date(deps.clock.now().getTime() + DOWNLOAD_URL_SECONDS * 1000).toISOString() });
}

function exportView(job: ExportJob, download: { url: string; expiresAt: string } | null): ExportView {
  const finished = job.state === 'completed';
  return {
    id: job.id,
    status: job.state,
    progress: {
      percent: percent(job.documents_done, job.documents_total, finished),
      documents_done: job.documents_done,
      documents_total: job.documents_total,
      bytes_done: job.bytes_done,
    },
    created_at: job.created_at,
    finished_at: job.finished_at,
    size: job.archive_size,
    sha256: job.archive_sha256,
    download_url: download?.url ?? null,
    download_expires_at: download?.expiresAt ?? null,
    failure_reason: job.failure_reason,
  };
}

/** The refusal of an import into a workspace that holds documents, labels, sources or rules. */
export const notEmpty = () =>
  conflict('Imports go into an empty workspace: this one holds documents, labels, sources or rules', { reason: 'workspace_not_empty' });

/**
 * Announces an import into the caller's workspace, which must be empty: a presigned PUT for the archive of
 * exactly `size` bytes. The import starts when the client asks for it ({@link startImport}) after the upload.
 */
export async function createImport(deps: PortabilityDeps & EmptinessDeps, principal: Principal, size: number): Promise<ImportGrant> {
  if (!(await isWorkspaceEmpty(deps))) throw notEmpty();
  const at = deps.clock.now();
  const expiresAt = new Date(at.getTime() + IMPORT_UPLOAD_URL_SECONDS * 1000).toISOString();
  const id = crypto.randomUUID();
  const job: ImportJob = {
    id,
    state: 'awaiting_archive',
    created_by: principal.userId,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    finished_at: null,
    size,
    archive_key: archiveKeys.import(id),
    upload_expires_at: expiresAt,
    documents_total: 0,
    documents_done: 0,
    result: null,
    failure_reason: null,
  };
  const uploadUrl = await deps.archives.uploadUrl(job.archive_key, IMPORT_UPLOAD_URL_SECONDS, size);
  await deps.portabilityJobs.createImport(job);
  return { ...importView(job), upload_url: uploadUrl, method: 'PUT', headers: {}, expires_at: expiresAt };
}

/** Starts an announced import whose archive was uploaded (exactly the size announced). */
export async function startImport(deps: PortabilityDeps & EmptinessDeps, id: string): Promise<ImportView> {
  const job = await deps.portabilityJobs.getImport(id);
  if (!job) throw notFound('Import', id);
  if (job.state !== 'awaiting_archive') throw conflict('This import has started already', { reason: 'import_started', status: job.state });
  const size = await deps.archives.size(job.archive_key);
  if (size !== job.size) {
    throw new AppError('VALIDATION_ERROR', 'Upload the archive to the import’s upload_url first', { field: 'archive', reason: size === null ? 'not uploaded' : 'size differs from the announced size' });
  }
  if (!(await isWorkspaceEmpty(deps))) throw notEmpty();
  const updatedAt = deps.clock.now().toISOString();
  if (!(await deps.portabilityJobs.updateImport(id, { state: 'queued', updated_at: updatedAt }, ['awaiting_archive']))) {
    throw conflict('This import has started already', { reason: 'import_started' });
  }
  await deps.portabilityQueue.enqueue({ kind: 'import', workspace_id: deps.workspaceId, job_id: id });
  return importView({ ...job, state: 'queued', updated_at: updatedAt });
}

export async function getImport(deps: PortabilityDeps, id: string): Promise<ImportView> {
  const job = await deps.portabilityJobs.getImport(id);
  if (!job) throw notFound('Import', id);
  return importView(job);
}

export const importView = (job: ImportJob): ImportView => ({
  id: job.id,
  status: job.state,
  progress: {
    percent: percent(job.documents_done, job.documents_total, job.state === 'completed'),
    documents_done: job.documents_done,
    documents_total: job.documents_total,
  },
  created_at: job.created_at,
  finished_at: job.finished_at,
  result: job.result,
  failure_reason: job.failure_reason,
});

/**
 * Ends a queued export or import that its workspace's state no longer lets run (suspended): failed, with the
 * reason, so that its admin sees why and asks again once the workspace is active.
 */
export async function refusePortabilityJob(
  deps: Pick<PortabilityDeps, 'portabilityJobs' | 'clock'>,
  kind: 'export' | 'import',
  id: string,
  reason: string,
): Promise<void> {
  const at = deps.clock.now().toISOString();
  const changes = { state: 'failed' as const, failure_reason: reason, finished_at: at, updated_at: at };
  if (kind === 'export') await deps.portabilityJobs.updateExport(id, changes, ['queued', 'running']);
  else await deps.portabilityJobs.updateImport(id, changes, ['queued', 'validating', 'importing']);
}
