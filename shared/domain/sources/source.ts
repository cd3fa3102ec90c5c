/** The one source type of profile P. */
export const SOURCE_TYPES = ['webdav'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/**
 * P gives `active` only; users also need to see a sync running, a source that failed (with `status_reason`), and
 * one they switched off (`enabled: false`: no scheduled syncs).
 */
export const SOURCE_STATUSES = ['active', 'syncing', 'error', 'disabled'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** The shortest sync interval: a scheduled walk more often than once a minute is load, not freshness. */
export const MIN_SYNC_INTERVAL_SECONDS = 60;
/** The longest: a week. */
export const MAX_SYNC_INTERVAL_SECONDS = 7 * 86_400;

/** A stored source. The password is kept sealed (see CredentialVault) and never leaves the repository open. */
export interface SourceRecord {
  id: string;
  name: string;
  type: SourceType;
  url: string;
  username: string;
  /** The password, sealed for this workspace and source. */
  password_sealed: string;
  sync_interval: number;
  recursive: boolean;
  file_patterns: string[];
  enabled: boolean;
  /** Why the last sync failed as a whole (unreachable, wrong password); null once one succeeds. */
  error: string | null;
  last_sync: string | null;
  next_sync: string | null;
  /** When a sync last compared every file rather than trusting unchanged directory ETags. */
  last_full_walk: string | null;
  /** The sync running now, if any; `last_job_id` the latest one started. */
  current_job_id: string | null;
  last_job_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** The P Source, plus what users need to act on it; never the password. */
export interface SourceView {
  id: string;
  name: string;
  type: SourceType;
  url: string;
  username: string;
  status: SourceStatus;
  status_reason: string | null;
  enabled: boolean;
  last_sync: string | null;
  next_sync: string | null;
  document_count: number;
  sync_interval: number;
  recursive: boolean;
  file_patterns: string[];
  created_at: string;
  updated_at: string;
}

export function statusOf(source: SourceRecord): SourceStatus {
  if (source.current_job_id) return 'syncing';
  if (source.error) return 'error';
  return source.enabled ? 'active' : 'disabled';
}

export function toSourceView(source: SourceRecord, documentCount: number): SourceView {
  const status = statusOf(source);
  return {
    id: source.id,
    name: source.name,
    type: source.type,
    url: source.url,
    username: source.username,
    status,
    status_reason: status === 'error' ? source.error : null,
    enabled: source.enabled,
    last_sync: source.last_sync,
    next_sync: source.enabled ? source.next_sync : null,
    document_count: documentCount,
    sync_interval: source.sync_interval,
    recursive: source.recursive,
    file_patterns: source.file_patterns,
    created_at: source.created_at,
    updated_at: source.updated_at,
  };
}

/** When a source syncs next: an interval after `from`. */
export const nextSyncAfter = (from: Date, intervalSeconds: number): string => new Date(from.getTime() + intervalSeconds * 1000).toISOString();
