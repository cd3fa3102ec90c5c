import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../../shared/domain/changes/ports';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import { deriveEvents, needsCompletedToday } from '../../../../shared/domain/events/derive-events';
import type { Notification } from '../../../../shared/domain/notifications/notification';
import { newOcrJob, type OcrJob, type OcrQueueCounters } from '../../../../shared/domain/ocr/jobs';
import { aDocumentRecord } from '../../../support/builders';

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
