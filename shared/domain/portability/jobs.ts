/** Exports and imports of a workspace as their records keep them (one table item each, under the workspace). */

export const EXPORT_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

export interface ExportJob {
  id: string;
  state: ExportState;
  created_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** Documents counted when the run began, and written so far. */
  documents_total: number;
  documents_done: number;
  /** Bytes of original files written so far. */
  bytes_done: number;
  /** The archive's key in the workspace's part of the bucket, its size and SHA-256, once completed. */
  archive_key: string | null;
  archive_size: number | null;
  archive_sha256: string | null;
  failure_reason: string | null;
}

export const IMPORT_STATES = ['awaiting_archive', 'queued', 'validating', 'importing', 'completed', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** A user of the archive, listed in an import's result (users are not imported). */
export interface SkippedUser {
  id: string;
  username: string;
  email: string;
  role: string;
}

/** What an import wrote. */
export interface ImportResult {
  documents: number;
  files: number;
  labels: number;
  sources: number;
  rules: number;
  /** The archive's users: not imported; the workspace's admin invites them again. */
  users_not_imported: SkippedUser[];
  /** The archive's webhooks: not imported (their secrets are not in it). */
  webhooks_not_imported: number;
}

export interface ImportJob {
  id: string;
  state: ImportState;
  created_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** The archive's size as announced: the upload URL takes exactly these bytes. */
  size: number;
  archive_key: string;
  upload_expires_at: string;
  documents_total: number;
  documents_done: number;
  result: ImportResult | null;
  /** Why the archive was refused or the import failed: `<reason>: <detail>`; nothing of it stays. */
  failure_reason: string | null;
}

/** Keys of the archives in the workspace's part of the bucket. */
export const archiveKeys = {
  export: (id: string) => `exports/${id}.tar.gz`,
  import: (id: string) => `imports/${id}.tar.gz`,
};

/** How long a download link of a finished export works. */
export const DOWNLOAD_URL_SECONDS = 3600;
/** How long the upload URL of an import's archive works. */
export const IMPORT_UPLOAD_URL_SECONDS = 3600;
/** The largest archive an import takes. */
export const MAX_IMPORT_ARCHIVE_BYTES = 50 * 1024 * 1024 * 1024;
