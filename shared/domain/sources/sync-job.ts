/** What happened to the files a sync considered. */
export interface SyncCounts {
  /** Became new documents. */
  new: number;
  /** Replaced the file of their document (OCR runs again). */
  changed: number;
  /** Unchanged since the last sync: not downloaded. */
  unchanged: number;
  /** Not stored: empty, of an unsupported type, or over the size limit (each is in `errors` with its reason). */
  skipped: number;
  /** Their bytes equal a document already in the workspace: recorded, not stored twice. */
  duplicates: number;
  /** Could not be read (403, timeout, server error); tried again on the next sync. */
  failed: number;
}

export const ZERO_COUNTS: SyncCounts = { new: 0, changed: 0, unchanged: 0, skipped: 0, duplicates: 0, failed: 0 };

export interface SyncError {
  path: string;
  reason: string;
}

/** A job keeps the first errors only: enough to act on, bounded in size. */
export const MAX_SYNC_ERRORS = 50;

export const SYNC_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/** One sync of a source, from queued to completed or failed. */
export interface SyncJob extends SyncCounts {
  job_id: string;
  source_id: string;
  state: SyncState;
  trigger: 'manual' | 'schedule';
  /** The editor who started a manual sync (told when it finishes). */
  started_by: string | null;
  /** Files considered so far, and found so far (both grow as the walk goes). */
  processed: number;
  total: number;
  current_file: string | null;
  errors: SyncError[];
  /** Compares every file (the first sync, and once a day) rather than trusting unchanged directory ETags. */
  full_walk: boolean;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  failure: string | null;
}

/** The P sync-status answer: the running or last sync. */
export type SyncStatusView = Omit<SyncJob, 'trigger' | 'started_by' | 'queued_at' | 'full_walk'> & { queued_at: string };

export const toSyncStatusView = (job: SyncJob): SyncStatusView => ({
  job_id: job.job_id,
  source_id: job.source_id,
  state: job.state,
  processed: job.processed,
  total: job.total,
  current_file: job.current_file,
  queued_at: job.queued_at,
  started_at: job.started_at,
  finished_at: job.finished_at,
  new: job.new,
  changed: job.changed,
  unchanged: job.unchanged,
  skipped: job.skipped,
  duplicates: job.duplicates,
  failed: job.failed,
  errors: job.errors,
  failure: job.failure,
});
