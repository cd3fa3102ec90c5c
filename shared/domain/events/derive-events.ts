import type { ItemChange } from '../changes/ports';
import { REPORTED_FIELDS, type DocumentRecord } from '../documents/document';
import type { OcrJob } from '../ocr/jobs';
import type { SyncJob } from '../sources/sync-job';
import type { ExportJob } from '../portability/jobs';
import type { Audience, ServerEvent } from './ports';

/** An event a change calls for, and who hears it: a workspace's connections, or one user's. */
export type DerivedEvent =
  | { workspaceId: string; audience: Audience; event: ServerEvent }
  /** A user's notification whose item does not name the workspace (written before items did): the publisher looks it up. */
  | { workspaceId: null; audience: { userId: string }; event: ServerEvent };

/** What a change does not carry but an event needs, read by the caller (see {@link needsCompletedToday}). */
export interface ChangeFacts {
  /** OCR runs completed in the workspace on the day of the change (queue_status's `completed`). */
  completedToday?: number;
}


const FINISHED = new Set<OcrJob['status']>(['completed', 'failed', 'cancelled']);

/** Whether {@link deriveEvents} needs `completedToday` for this change: a change of the queue's counters. */
export const needsCompletedToday = (change: ItemChange): boolean =>
  change.entity === 'ocr_queue_counters' && queueMoved(change.old, change.new);

/**
 * The P events a table change calls for, with their data fields and audiences:
 * - a document inserted: `document_created {document_id, title, source}` (`source` its source id, or
 *   `upload`) to the workspace;
 * - a document modified: `document_updated {document_id, changes}` to the workspace, `changes` holding each of
 *   title, labels, metadata, size and mime_type whose stored value changed, with the new value; a replaced file
 *   (another sha256) always reports size and mime_type, and `source` when the document came from a source;
 *   a change of none of them (OCR status, a label rename moving the version) sends nothing;
 * - an OCR job taken by a worker (0, processing), moved on a page (progress, processing) or finished
 *   (100, completed / failed / cancelled) after processing: `ocr_progress` to the job's creator;
 * - a notification inserted: `notification {id, type, title, message}` to its user;
 * - the queue counters moved (pending or processing): `queue_status {pending, processing, completed}` to the
 *   workspace, `completed` being `facts.completedToday`;
 * - a running sync's progress moved (a count, the total or the current file), or the sync ended (completed or
 *   failed, once): `sync_progress {source_id, processed, total, current_file}` to the workspace, `processed`
 *   the sum of its counts, `total` at least that, `current_file` '' once it ended.
 * - an export's state or documents written moved: `export_progress {export_id, status, progress, documents_done,
 *   documents_total}` to the admin who asked for it, `progress` a percent (100 once completed).
 * Everything else calls for nothing. Pure: the same change gives the same events.
 */
export function deriveEvents(change: ItemChange, facts: ChangeFacts = {}): DerivedEvent[] {
  switch (change.entity) {
    case 'document':
      return documentEvents(change.workspaceId, change.old, change.new);
    case 'ocr_job': {
      const event = progressEvent(change.old, change.new);
      return event ? [{ workspaceId: change.workspaceId, audience: { userId: change.new!.created_by }, event }] : [];
    }
    case 'notification': {
      const notification = change.new;
      if (change.old !== null || !notification) return [];
      const { id, type, title, message } = notification;
      const event: ServerEvent = { type: 'notification', data: { id, type, title, message } };
      const audience = { userId: change.userId };
      return [change.workspaceId !== null ? { workspaceId: change.workspaceId, audience, event } : { workspaceId: null, audience, event }];
    }
    case 'ocr_queue_counters': {
      if (!change.new || !queueMoved(change.old, change.new)) return [];
      const { pending, processing } = change.new;
      return [{ workspaceId: change.workspaceId, audience: 'workspace', event: { type: 'queue_status', data: { pending, processing, completed: facts.completedToday ?? 0 } } }];
    }
    case 'sync_job': {
      const event = syncProgressEvent(change.old, change.new);
      return event ? [{ workspaceId: change.workspaceId, audience: 'workspace', event }] : [];
    }
    case 'export_job': {
      const event = exportProgressEvent(change.old, change.new);
      return event ? [{ workspaceId: change.workspaceId, audience: { userId: change.new!.created_by }, event }] : [];
    }
    default:
      return [];
  }
}

/** The progress an export's change reports: a change of its state or of the documents it has written. */
function exportProgressEvent(old: ExportJob | null, next: ExportJob | null): ServerEvent | null {
  if (!next) return null;
  if (old && old.state === next.state && old.documents_done === next.documents_done) return null;
  const total = next.documents_total;
  const progress = next.state === 'completed' ? 100 : total ? Math.min(99, Math.floor((next.documents_done * 100) / total)) : 0;
  return {
    type: 'export_progress',
    data: { export_id: next.id, status: next.state, progress, documents_done: next.documents_done, documents_total: total },
  };
}

function documentEvents(workspaceId: string, old: DocumentRecord | null, next: DocumentRecord | null): DerivedEvent[] {
  if (!next) return [];
  if (!old) {
    return [{ workspaceId, audience: 'workspace', event: { type: 'document_created', data: { document_id: next.id, title: next.title, source: next.source_id ?? 'upload' } } }];
  }
  const fileReplaced = old.sha256 !== next.sha256;
  const changes: Record<string, unknown> = {};
  for (const field of REPORTED_FIELDS) {
    if (!sameValue(old[field], next[field]) || (fileReplaced && (field === 'size' || field === 'mime_type'))) changes[field] = next[field];
  }
  if (fileReplaced && next.source_id) changes['source'] = next.source_id;
  if (Object.keys(changes).length === 0) return [];
  return [{ workspaceId, audience: 'workspace', event: { type: 'document_updated', data: { document_id: next.id, changes } } }];
}

/** The progress a job's change reports, if any: taken, a page read, or finished after processing. */
function progressEvent(old: OcrJob | null, next: OcrJob | null): ServerEvent | null {
  if (!next) return null;
  const data = (progress: number, status: string): ServerEvent => ({ type: 'ocr_progress', data: { document_id: next.document_id, progress, status } });
  if (next.status === 'processing') {
    const taken = old?.status !== 'processing' || old.attempts !== next.attempts || old.run !== next.run;
    if (taken) return data(0, 'processing');
    return old.progress !== next.progress ? data(next.progress, 'processing') : null;
  }
  // A queued job cancelled or restarted, or a finished one rewritten, reports nothing.
  if (FINISHED.has(next.status) && old?.status === 'processing' && old.run === next.run) return data(100, next.status);
  return null;
}

const SYNC_ENDED = new Set<SyncJob['state']>(['completed', 'failed']);

/** What a sync_progress says of a job; `processed` counts every outcome (as the job's own `processed` does). */
function syncProgressOf(job: SyncJob, ended: boolean) {
  const processed = job.new + job.changed + job.unchanged + job.skipped + job.duplicates + job.failed;
  return { source_id: job.source_id, processed, total: Math.max(job.total, processed), current_file: ended ? '' : (job.current_file ?? '') };
}

/**
 * The progress a sync job's change reports: its end the first time it is seen ended (whatever came before,
 * so a sync that fails before its first file is still reported), else a running job's moved progress. A
 * queued job, a lease taken or let go (nothing moved) and a removal report nothing.
 */
function syncProgressEvent(old: SyncJob | null, next: SyncJob | null): ServerEvent | null {
  if (!next) return null;
  if (SYNC_ENDED.has(next.state)) return old && SYNC_ENDED.has(old.state) ? null : { type: 'sync_progress', data: syncProgressOf(next, true) };
  if (next.state !== 'running') return null;
  const now = syncProgressOf(next, false);
  // A job first seen running (queued and leased in one batch) is compared with a job that has done nothing yet,
  // so the batching of its changes never decides whether a start with no progress is reported.
  const before = old ? syncProgressOf(old, false) : { source_id: next.source_id, processed: 0, total: 0, current_file: '' };
  if (sameValue(before, now)) return null;
  return { type: 'sync_progress', data: now };
}

function queueMoved(old: { pending: number; processing: number } | null, next: { pending: number; processing: number } | null): boolean {
  if (!next) return false;
  return !old || old.pending !== next.pending || old.processing !== next.processing;
}

/** Deep equality of stored values (strings, numbers, lists, flat maps). */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalised(a)) === JSON.stringify(normalised(b));
}

const normalised = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => x.localeCompare(y)))
    : value;
