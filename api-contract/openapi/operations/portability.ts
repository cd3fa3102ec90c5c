import type { routes } from '../../../functions/portability/schemas';
import type { GroupDocs } from '../operation-docs';
import { WorkspaceExport, WorkspaceImport, WorkspaceImportGrant } from '../shapes/portability';

const ARCHIVE =
  "The archive is a gzip'd tar of format 1: JSON lines of the labels, sources (no passwords), users (no password hashes), rules, webhooks (no secrets), usage rows, audit log and documents (metadata, labels, extracted text, confidence, source), every original file, and `manifest.json` last with the format version, the counts and the size and SHA-256 of every entry (docs/export-and-import.md).";

const exportJob = {
  id: '6b1f2a3c-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  status: 'running',
  progress: { percent: 40, documents_done: 800, documents_total: 2000, bytes_done: 419430400 },
  created_at: '2026-11-29T08:00:00.000Z',
  finished_at: null,
  size: null,
  sha256: null,
  download_url: null,
  download_expires_at: null,
  failure_reason: null,
};

const importJob = {
  id: '7c2a3b4d-5e6f-4a70-8b8c-9d0e1f2a3b4c',
  status: 'completed',
  progress: { percent: 100, documents_done: 2000, documents_total: 2000 },
  created_at: '2026-11-29T09:00:00.000Z',
  finished_at: '2026-11-29T09:04:00.000Z',
  result: {
    documents: 2000,
    files: 2000,
    labels: 12,
    sources: 1,
    rules: 3,
    users_not_imported: [{ id: '1a2b3c4d-5e6f-4a70-8b8c-9d0e1f2a3b4c', username: 'ada', email: 'ada@example.com', role: 'admin' }],
    webhooks_not_imported: 1,
  },
  failure_reason: null,
};

export const portabilityDocs: GroupDocs<typeof routes> = {
  createWorkspaceExport: {
    summary: 'Export your workspace',
    description: `Its admins: starts an export of the whole workspace to one archive in the bucket, written in the background (\`export_progress\` events over the WebSocket, to the admin who asked). ${ARCHIVE}`,
    responses: { 202: { description: 'The export, queued.', schema: WorkspaceExport, example: { ...exportJob, status: 'queued', progress: { percent: 0, documents_done: 0, documents_total: 0, bytes_done: 0 } } } },
  },
  getWorkspaceExport: {
    summary: 'Get an export',
    description: 'Its status and progress; once `completed`, `download_url` downloads the archive for an hour (a new link on each read).',
    responses: { 200: { description: 'The export.', schema: WorkspaceExport, example: exportJob } },
  },
  createWorkspaceImport: {
    summary: 'Import an archive into your workspace',
    description:
      'Its admins, into an empty workspace (no documents, labels, sources or rules; 409 `workspace_not_empty` otherwise): announces the archive by its `size` and answers a presigned PUT for it (archives are above the request size limit). After the upload, POST `/api/workspace/imports/{id}/start`.',
    requestExample: { size: 1073741824 },
    responses: {
      201: {
        description: 'The import, awaiting its archive.',
        schema: WorkspaceImportGrant,
        example: {
          ...importJob,
          status: 'awaiting_archive',
          progress: { percent: 0, documents_done: 0, documents_total: 0 },
          finished_at: null,
          result: null,
          upload_url: 'https://docservice-documents.s3.amazonaws.com/workspaces/3f0c6a1e/imports/7c2a3b4d-5e6f-4a70-8b8c-9d0e1f2a3b4c.tar.gz?X-Amz-Signature=abc123',
          method: 'PUT',
          headers: {},
          expires_at: '2026-11-29T10:00:00.000Z',
        },
      },
    },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'The workspace is not empty (`workspace_not_empty`).' }],
  },
  startWorkspaceImport: {
    summary: 'Start an import',
    description:
      'Once its archive was uploaded (400 naming `archive` if it is not, or not of the announced size): the import is queued. The archive is read whole and checked (format, version, every checksum and size against the manifest, every record) before anything is written; a refused archive ends the import `failed` with the reason, and a failure while writing removes what was written. Documents, files (byte for byte), labels and assignments, texts (no OCR runs again), sources (disabled, without a password) and rules are imported; users and webhooks are listed, not imported.',
    responses: { 202: { description: 'The import, queued.', schema: WorkspaceImport, example: { ...importJob, status: 'queued', progress: { percent: 0, documents_done: 0, documents_total: 0 }, finished_at: null, result: null } } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'The import started already (`import_started`), or the workspace is no longer empty (`workspace_not_empty`).' }],
  },
  getWorkspaceImport: {
    summary: 'Get an import',
    description: 'Its status and progress, then its result (what was imported, and the users and webhooks that were not) or why it failed.',
    responses: { 200: { description: 'The import.', schema: WorkspaceImport, example: importJob } },
  },
};
