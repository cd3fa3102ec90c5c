import * as z from '../../../shared/zod';
import { MAX_SYNC_ERRORS, SYNC_STATES } from '../../../shared/domain/sources/sync-job';
import { MAX_SYNC_INTERVAL_SECONDS, MIN_SYNC_INTERVAL_SECONDS, SOURCE_STATUSES, SOURCE_TYPES } from '../../../shared/domain/sources/source';
import { id, shape, timestamp } from './registry';

/** A WebDAV folder synced into the workspace, as every source operation answers it (never its password). */
export const Source = shape(
  'Source',
  'A WebDAV folder whose files are synced into the workspace as documents. The password is never returned.',
  z.strictObject({
    id: id(),
    name: z.string(),
    type: z.enum(SOURCE_TYPES),
    // As stored: always ending in `/`.
    url: z.url(),
    username: z.string(),
    status: z.enum(SOURCE_STATUSES),
    // Why the last sync failed as a whole; null unless `status` is `error`.
    status_reason: z.nullable(z.string()),
    enabled: z.boolean(),
    // Null before the source's first sync ended.
    last_sync: z.nullable(timestamp()),
    // Null while the source is disabled (no scheduled sync).
    next_sync: z.nullable(timestamp()),
    document_count: z.int().check(z.gte(0)),
    sync_interval: z.int().check(z.gte(MIN_SYNC_INTERVAL_SECONDS), z.lte(MAX_SYNC_INTERVAL_SECONDS)),
    recursive: z.boolean(),
    // No bound here: a pattern stored before a bound existed is still answered as stored.
    file_patterns: z.array(z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);

/** The workspace's sources. */
export const SourceList = shape('SourceList', "The workspace's sources, oldest first.", z.strictObject({ sources: z.array(Source) }));

/** A sync that was queued. */
export const SyncStarted = shape(
  'SyncStarted',
  'A sync that was accepted and queued; follow it with the sync status.',
  z.strictObject({ message: z.string(), job_id: id() }),
);

/** A source's running sync, else its last one. */
export const SyncStatus = shape(
  'SyncStatus',
  "A source's running sync, else its last one: its state, progress and what happened to the files it considered.",
  z.strictObject({
    job_id: id(),
    source_id: id(),
    state: z.enum(SYNC_STATES),
    // Files considered so far, and files found so far: both grow as the walk goes.
    processed: z.int().check(z.gte(0)),
    total: z.int().check(z.gte(0)),
    // The last file the running sync finished; null before its first and once the sync has ended.
    current_file: z.nullable(z.string()),
    queued_at: timestamp(),
    started_at: z.nullable(timestamp()),
    finished_at: z.nullable(timestamp()),
    new: z.int().check(z.gte(0)),
    changed: z.int().check(z.gte(0)),
    unchanged: z.int().check(z.gte(0)),
    skipped: z.int().check(z.gte(0)),
    duplicates: z.int().check(z.gte(0)),
    failed: z.int().check(z.gte(0)),
    // The first problems only: skipped, duplicate and failed files, unreadable directories (their path ends in `/`).
    errors: z.array(z.strictObject({ path: z.string(), reason: z.string() })).check(z.maxLength(MAX_SYNC_ERRORS)),
    // Why a failed sync failed as a whole; null otherwise.
    failure: z.nullable(z.string()),
  }),
);
