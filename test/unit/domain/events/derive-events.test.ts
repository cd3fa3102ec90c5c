import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../../shared/domain/changes/ports';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import { deriveEvents, needsCompletedToday } from '../../../../shared/domain/events/derive-events';
import type { Notification } from '../../../../shared/domain/notifications/notification';
import { newOcrJob, type OcrJob, type OcrQueueCounters } from '../../../../shared/domain/ocr/jobs';
import type { ExportJob } from '../../../../shared/domain/portability/jobs';
import type { SyncJob } from '../../../../shared/domain/sources/sync-job';
import { aDocumentRecord, aSyncJob } from '../../../support/builders';

const WS = 'ws-1';
const at = '2026-11-26T10:00:00.000Z';
const base = { id: 'event-1', sequence: '100', at };

const documentChange = (old: DocumentRecord | null, next: DocumentRecord | null): ItemChange => ({
  ...base,
  entity: 'document',
  workspaceId: WS,
  documentId: (next ?? old)!.id,
  old,
  new: next,
});
const jobChange = (old: OcrJob | null, next: OcrJob | null): ItemChange => ({
  ...base,
  entity: 'ocr_job',
  workspaceId: WS,
  documentId: (next ?? old)!.document_id,
  old,
  new: next,
});
const countersChange = (old: OcrQueueCounters | null, next: OcrQueueCounters | null): ItemChange => ({
  ...base,
  entity: 'ocr_queue_counters',
  workspaceId: WS,
  old,
  new: next,
});

const document = aDocumentRecord({ id: 'doc-1', title: 'Invoice', created_by: 'uploader', version: 1 });
const queued = newOcrJob({ id: 'doc-1', language: 'eng', created_by: 'uploader' }, 'normal', at);
const processing: OcrJob = { ...queued, status: 'processing', attempts: 1, started_at: at, heartbeat_at: at };
const notification: Notification = {
  id: 'note-1',
  type: 'ocr_completed',
  title: 'OCR completed',
  message: '"Invoice" is searchable',
  read: false,
  created_at: at,
  data: { document_id: 'doc-1' },
};

describe('events derived from a table change', () => {
  it('announces a new uploaded document to the workspace with source "upload"', () => {
    const events = deriveEvents(documentChange(null, document));

    expect(events).toEqual([
      { workspaceId: WS, audience: 'workspace', event: { type: 'document_created', data: { document_id: 'doc-1', title: 'Invoice', source: 'upload' } } },
    ]);
  });

  it('names the source of a new document a source sync created', () => {
    const [created] = deriveEvents(documentChange(null, { ...document, source_id: 'source-1' }));

    expect(created?.event).toEqual({ type: 'document_created', data: { document_id: 'doc-1', title: 'Invoice', source: 'source-1' } });
  });

  it('reports an edited title and metadata in document_updated, with their new values', () => {
    const edited = { ...document, title: 'Paid invoice', metadata: { year: 2026 }, version: 2 };

    const events = deriveEvents(documentChange(document, edited));

    expect(events).toEqual([
      {
        workspaceId: WS,
        audience: 'workspace',
        event: { type: 'document_updated', data: { document_id: 'doc-1', changes: { title: 'Paid invoice', metadata: { year: 2026 } } } },
      },
    ]);
  });

  it('reports changed labels as the whole new list', () => {
    const labelled = { ...document, labels: ['a', 'b'], version: 2 };

    const [updated] = deriveEvents(documentChange({ ...document, labels: ['a'] }, labelled));

    expect(updated?.event).toEqual({ type: 'document_updated', data: { document_id: 'doc-1', changes: { labels: ['a', 'b'] } } });
  });

  it('does not count metadata written in another key order as a change', () => {
    const before = { ...document, metadata: { a: 1, b: 2 } };

    expect(deriveEvents(documentChange(before, { ...before, metadata: { b: 2, a: 1 }, version: 2 }))).toEqual([]);
  });

  it('reports a file a source sync replaced with its size, type and source, as the sync does today', () => {
    const before = { ...document, source_id: 'source-1' };
    const replaced = { ...before, sha256: 'other', size: before.size, version: 2 };

    const [updated] = deriveEvents(documentChange(before, replaced));

    expect(updated?.event).toEqual({
      type: 'document_updated',
      data: { document_id: 'doc-1', changes: { size: before.size, mime_type: before.mime_type, source: 'source-1' } },
    });
  });

  it('sends nothing for a document change that only moves its OCR status and version', () => {
    const completed = { ...document, status: 'completed' as const, ocr_confidence: 0.9, version: 3 };

    expect(deriveEvents(documentChange(document, completed))).toEqual([]);
  });

  it('sends nothing when a document is deleted', () => {
    expect(deriveEvents(documentChange(document, null))).toEqual([]);
  });

  it('tells the job creator that a worker took the job, at 0 percent', () => {
    const events = deriveEvents(jobChange(queued, processing));

    expect(events).toEqual([
      { workspaceId: WS, audience: { userId: 'uploader' }, event: { type: 'ocr_progress', data: { document_id: 'doc-1', progress: 0, status: 'processing' } } },
    ]);
  });

  it('reports the progress a heartbeat stored after a page', () => {
    const [progress] = deriveEvents(jobChange(processing, { ...processing, progress: 50, pages: 2 }));

    expect(progress?.event).toEqual({ type: 'ocr_progress', data: { document_id: 'doc-1', progress: 50, status: 'processing' } });
  });

  it('reports a job taken over from a dead worker at 0 percent again', () => {
    const stale = { ...processing, progress: 50 };

    const [progress] = deriveEvents(jobChange(stale, { ...stale, attempts: 2, progress: 0 }));

    expect(progress?.event.data).toEqual({ document_id: 'doc-1', progress: 0, status: 'processing' });
  });

  it('sends nothing when a processing job only records a cancel request', () => {
    expect(deriveEvents(jobChange(processing, { ...processing, cancel_requested: true }))).toEqual([]);
  });

  it.each(['completed', 'failed', 'cancelled'] as const)('reports a processing job that ended %s at 100 percent', (status) => {
    const [progress] = deriveEvents(jobChange(processing, { ...processing, status, progress: status === 'completed' ? 100 : 40 }));

    expect(progress?.event).toEqual({ type: 'ocr_progress', data: { document_id: 'doc-1', progress: 100, status } });
  });

  it('sends no progress when a queued job is cancelled, as the cancel endpoint does today', () => {
    expect(deriveEvents(jobChange(queued, { ...queued, status: 'cancelled' }))).toEqual([]);
  });

  it('sends no progress when a job is queued, deferred or released', () => {
    expect(deriveEvents(jobChange(null, queued))).toEqual([]);
    expect(deriveEvents(jobChange(processing, { ...processing, status: 'queued' }))).toEqual([]);
  });

  it('pushes a new notification to its user only, in the workspace its item records', () => {
    const change: ItemChange = { ...base, entity: 'notification', userId: 'uploader', notificationId: 'note-1', workspaceId: 'ws-1', old: null, new: notification };

    expect(deriveEvents(change)).toEqual([
      {
        workspaceId: 'ws-1',
        audience: { userId: 'uploader' },
        event: { type: 'notification', data: { id: 'note-1', type: 'ocr_completed', title: 'OCR completed', message: '"Invoice" is searchable' } },
      },
    ]);
  });

  it('leaves the workspace of a notification whose item does not record it to the publisher', () => {
    const change: ItemChange = { ...base, entity: 'notification', userId: 'uploader', notificationId: 'note-1', workspaceId: null, old: null, new: notification };

    expect(deriveEvents(change)).toEqual([
      {
        workspaceId: null,
        audience: { userId: 'uploader' },
        event: { type: 'notification', data: { id: 'note-1', type: 'ocr_completed', title: 'OCR completed', message: '"Invoice" is searchable' } },
      },
    ]);
  });

  it('sends nothing when a notification is marked read', () => {
    const change: ItemChange = { ...base, entity: 'notification', userId: 'uploader', notificationId: 'note-1', workspaceId: 'ws-1', old: notification, new: { ...notification, read: true } };

    expect(deriveEvents(change)).toEqual([]);
  });

  it('sends the queue counters with the completions of the day when pending or processing move', () => {
    const change = countersChange({ pending: 2, processing: 1, failed: 0 }, { pending: 2, processing: 0, failed: 0 });

    expect(needsCompletedToday(change)).toBe(true);
    expect(deriveEvents(change, { completedToday: 7 })).toEqual([
      { workspaceId: WS, audience: 'workspace', event: { type: 'queue_status', data: { pending: 2, processing: 0, completed: 7 } } },
    ]);
  });

  it('sends no queue status when only the failed counter moves', () => {
    const change = countersChange({ pending: 0, processing: 0, failed: 1 }, { pending: 0, processing: 0, failed: 0 });

    expect(needsCompletedToday(change)).toBe(false);
    expect(deriveEvents(change, { completedToday: 1 })).toEqual([]);
  });

  it('derives nothing from a change of a label', () => {
    const label = { id: 'l', name: 'A', color: '#000000', description: null, document_count: 1, created_by: 'u', created_at: at, updated_at: at };
    const change: ItemChange = { ...base, entity: 'label', workspaceId: WS, labelId: 'l', old: label, new: { ...label, name: 'B' } };

    expect(deriveEvents(change)).toEqual([]);
  });
});

describe('export_progress', () => {
  const at = '2026-11-29T08:00:00.000Z';
  const job: ExportJob = {
    id: 'export-1',
    state: 'running',
    created_by: 'admin-1',
    created_at: at,
    updated_at: at,
    finished_at: null,
    documents_total: 200,
    documents_done: 0,
    bytes_done: 0,
    archive_key: null,
    archive_size: null,
    archive_sha256: null,
    failure_reason: null,
  };
  const change = (old: ExportJob | null, next: ExportJob | null): ItemChange => ({
    id: 'c1',
    sequence: '1',
    at,
    entity: 'export_job',
    workspaceId: 'ws-1',
    exportId: 'export-1',
    old,
    new: next,
  });

  it('reports documents written to the admin who asked for the export', () => {
    const events = deriveEvents(change(job, { ...job, documents_done: 50 }));

    expect(events).toEqual([
      {
        workspaceId: 'ws-1',
        audience: { userId: 'admin-1' },
        event: { type: 'export_progress', data: { export_id: 'export-1', status: 'running', progress: 25, documents_done: 50, documents_total: 200 } },
      },
    ]);
  });

  it('reports 100 once the export completed', () => {
    const [derived] = deriveEvents(change({ ...job, documents_done: 200 }, { ...job, documents_done: 200, state: 'completed' }));

    expect(derived?.event.data).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('reports nothing when neither the state nor the documents written moved', () => {
    expect(deriveEvents(change(job, { ...job, bytes_done: 4096 }))).toEqual([]);
  });
});

describe('sync_progress derived from a change of a sync job', () => {
  const WS = 'ws-1';
  const queued = aSyncJob('source-1', { job_id: 'job-1' });
  const running = (fields: Partial<SyncJob> = {}): SyncJob => ({ ...queued, state: 'running', started_at: '2026-11-26T10:00:00.000Z', ...fields });

  const jobChange = (old: SyncJob | null, next: SyncJob | null): ItemChange => ({
    id: 'event-1',
    sequence: '100',
    at: '2026-11-26T10:00:01.000Z',
    entity: 'sync_job',
    workspaceId: WS,
    sourceId: 'source-1',
    jobId: 'job-1',
    old,
    new: next,
  });

  const progress = (data: { processed: number; total: number; current_file: string }) => [
    { workspaceId: WS, audience: 'workspace', event: { type: 'sync_progress', data: { source_id: 'source-1', ...data } } },
  ];

  it('reports a file done to the workspace: the counts summed, the total, the file', () => {
    const before = running({ total: 10, unchanged: 2 });

    const events = deriveEvents(jobChange(before, { ...before, new: 1, unchanged: 2, current_file: 'docs/a.pdf' }));

    expect(events).toEqual(progress({ processed: 3, total: 10, current_file: 'docs/a.pdf' }));
  });

  it('never reports a total below what was processed (the walk is still finding files)', () => {
    const before = running({ total: 1, new: 1 });

    expect(deriveEvents(jobChange(before, { ...before, new: 2, current_file: 'b.pdf' }))).toEqual(progress({ processed: 2, total: 2, current_file: 'b.pdf' }));
  });

  it('reports a directory walked, which moves only the total', () => {
    const before = running({ total: 4, new: 1, current_file: 'a.pdf' });

    expect(deriveEvents(jobChange(before, { ...before, total: 9 }))).toEqual(progress({ processed: 1, total: 9, current_file: 'a.pdf' }));
  });

  it('reports the end of a sync once, with no current file', () => {
    const before = running({ total: 3, new: 2, failed: 1, current_file: 'c.pdf' });
    const completed: SyncJob = { ...before, state: 'completed', current_file: null, finished_at: '2026-11-26T10:00:05.000Z' };

    expect(deriveEvents(jobChange(before, completed))).toEqual(progress({ processed: 3, total: 3, current_file: '' }));
    expect(deriveEvents(jobChange(completed, { ...completed }))).toEqual([]);
  });

  it('reports a sync that failed before its first file', () => {
    const failed: SyncJob = { ...running(), state: 'failed', failure: 'the stored password could not be read; set it again' };

    expect(deriveEvents(jobChange(running(), failed))).toEqual(progress({ processed: 0, total: 0, current_file: '' }));
  });

  it('sends nothing for a job first seen running with no progress (queued and leased in one batch)', () => {
    expect(deriveEvents(jobChange(null, running()))).toEqual([]);
  });

  it('reports a job first seen running once it has progress', () => {
    expect(deriveEvents(jobChange(null, running({ total: 2 })))).toEqual(progress({ processed: 0, total: 2, current_file: '' }));
  });

  it('sends nothing for a queued job, a lease taken or let go, or a job removed', () => {
    const leased = running({ total: 5, new: 1 });

    expect(deriveEvents(jobChange(null, queued))).toEqual([]);
    expect(deriveEvents(jobChange(queued, running()))).toEqual([]);
    expect(deriveEvents(jobChange(leased, { ...leased }))).toEqual([]);
    expect(deriveEvents(jobChange(leased, null))).toEqual([]);
  });
});
