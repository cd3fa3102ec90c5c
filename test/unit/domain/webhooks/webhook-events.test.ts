import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../../shared/domain/changes/ports';
import type { DocumentRecord } from '../../../../shared/domain/documents/document';
import type { SyncJob } from '../../../../shared/domain/sources/sync-job';
import { deliveryIdOf, webhookEventsOf } from '../../../../shared/domain/webhooks/webhook-events';
import { aSyncJob } from '../../../support/builders';

const AT = '2026-03-01T10:00:00.000Z';

const aDocument = (overrides: Partial<DocumentRecord> = {}): DocumentRecord => ({
  id: 'doc-1',
  title: 'Invoice March',
  filename: 'invoice.pdf',
  mime_type: 'application/pdf',
  size: 2048,
  sha256: 'sha-1',
  status: 'pending',
  ocr_enabled: true,
  language: 'eng',
  ocr_confidence: null,
  labels: [],
  metadata: { customer: 'ACME' },
  source_id: null,
  failure_reason: null,
  created_by: 'u-1',
  created_at: '2026-03-01T09:00:00.000Z',
  updated_at: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const documentChange = (old: DocumentRecord | null, next: DocumentRecord | null, id = 'chg-1'): ItemChange => ({
  id,
  sequence: '100',
  at: AT,
  entity: 'document',
  workspaceId: 'w-1',
  documentId: 'doc-1',
  old,
  new: next,
});

const syncChange = (old: SyncJob | null, next: SyncJob | null): ItemChange => ({
  id: 'chg-sync',
  sequence: '200',
  at: AT,
  entity: 'sync_job',
  workspaceId: 'w-1',
  sourceId: 'src-1',
  jobId: next?.job_id ?? old?.job_id ?? 'job-1',
  old,
  new: next,
});

const typesOf = (change: ItemChange) => webhookEventsOf(change).map((event) => event.type);

describe('webhookEventsOf: documents', () => {
  it('makes an inserted document a document.uploaded event of its workspace, at the change time, carrying the document', () => {
    // Arrange
    const document = aDocument();

    // Act
    const events = webhookEventsOf(documentChange(null, document));

    // Assert
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'document.uploaded', workspace_id: 'w-1', created_at: AT, data: { document: { id: 'doc-1', title: 'Invoice March' } } });
    expect(events[0]!.id).toMatch(/^evt_/);
  });

  it('adds a label.assigned event per label an inserted document came with', () => {
    // Arrange
    const document = aDocument({ labels: ['lbl-a', 'lbl-b'] });

    // Act
    const events = webhookEventsOf(documentChange(null, document));

    // Assert
    expect(events.map((event) => event.type)).toEqual(['document.uploaded', 'label.assigned', 'label.assigned']);
    expect(events.slice(1).map((event) => event.data['label_id'])).toEqual(['lbl-a', 'lbl-b']);
  });

  it('makes a changed title a document.updated event naming only the title', () => {
    // Arrange
    const old = aDocument();
    const next = aDocument({ title: 'Invoice April', updated_at: AT });

    // Act
    const events = webhookEventsOf(documentChange(old, next));

    // Assert
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'document.updated', data: { changes: ['title'], document: { title: 'Invoice April' } } });
  });

  it('makes a status going from processing to completed an ocr.completed event and nothing else', () => {
    // Arrange
    const old = aDocument({ status: 'processing' });
    const next = aDocument({ status: 'completed', ocr_confidence: 0.93, updated_at: AT });

    // Act
    const types = typesOf(documentChange(old, next));

    // Assert
    expect(types).toEqual(['ocr.completed']);
  });

  it('makes a status going to failed an ocr.failed event', () => {
    // Arrange
    const old = aDocument({ status: 'processing' });
    const next = aDocument({ status: 'failed', failure_reason: 'unreadable', updated_at: AT });

    // Act
    const events = webhookEventsOf(documentChange(old, next));

    // Assert
    expect(events.map((event) => event.type)).toEqual(['ocr.failed']);
    expect(events[0]!.data['document']).toMatchObject({ status: 'failed', failure_reason: 'unreadable' });
  });

  it('sends no ocr event for a modification that leaves the status completed', () => {
    // Arrange
    const old = aDocument({ status: 'completed' });
    const next = aDocument({ status: 'completed', title: 'Renamed' });

    // Act
    const types = typesOf(documentChange(old, next));

    // Assert
    expect(types).toEqual(['document.updated']);
  });

  it('makes labels gained a label.assigned event per new label only, beside the document.updated naming labels', () => {
    // Arrange
    const old = aDocument({ labels: ['lbl-a'] });
    const next = aDocument({ labels: ['lbl-a', 'lbl-b', 'lbl-c'] });

    // Act
    const events = webhookEventsOf(documentChange(old, next));

    // Assert
    const assigned = events.filter((event) => event.type === 'label.assigned');
    expect(assigned.map((event) => event.data['label_id'])).toEqual(['lbl-b', 'lbl-c']);
    expect(events.find((event) => event.type === 'document.updated')?.data['changes']).toEqual(['labels']);
  });

  it('sends no label.assigned event when a label is only taken away', () => {
    // Arrange
    const old = aDocument({ labels: ['lbl-a', 'lbl-b'] });
    const next = aDocument({ labels: ['lbl-a'] });

    // Act
    const types = typesOf(documentChange(old, next));

    // Assert
    expect(types).toEqual(['document.updated']);
  });

  it('makes a removed document a document.deleted event carrying the document as it was', () => {
    // Arrange
    const old = aDocument({ title: 'Gone soon' });

    // Act
    const events = webhookEventsOf(documentChange(old, null));

    // Assert
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'document.deleted', data: { document: { id: 'doc-1', title: 'Gone soon' } } });
  });

  it('sends nothing for a modification of fields users do not see', () => {
    // Arrange
    const old = aDocument({ status: 'processing' });
    const next = aDocument({ status: 'processing', version: 7, updated_at: AT });

    // Act
    const types = typesOf(documentChange(old, next));

    // Assert
    expect(types).toEqual([]);
  });

  it("never puts a document's text, nor its internal fields, in an event", () => {
    // Arrange
    const document = { ...aDocument({ labels: ['lbl-a'] }), content: 'CONFIDENTIAL extracted text' } as DocumentRecord;

    // Act
    const events = webhookEventsOf(documentChange(null, document));

    // Assert
    expect(events).toHaveLength(2);
    for (const event of events) {
      expect(JSON.stringify(event)).not.toContain('CONFIDENTIAL');
      expect(event.data['document']).not.toHaveProperty('content');
      expect(event.data['document']).not.toHaveProperty('created_by');
      expect(event.data['document']).not.toHaveProperty('ocr_enabled');
    }
  });
});

describe('webhookEventsOf: syncs', () => {
  it('makes a sync going from running to completed a source.sync.completed event with its counts', () => {
    // Arrange
    const running = aSyncJob('src-1', { job_id: 'job-1', state: 'running' });
    const completed = { ...running, state: 'completed' as const, new: 3, changed: 1, finished_at: AT };

    // Act
    const events = webhookEventsOf(syncChange(running, completed));

    // Assert
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'source.sync.completed', workspace_id: 'w-1', data: { sync: { job_id: 'job-1', source_id: 'src-1', state: 'completed', new: 3, changed: 1 } } });
  });

  it('sends nothing when a completed sync is written again', () => {
    // Arrange
    const completed = aSyncJob('src-1', { state: 'completed', finished_at: AT });

    // Act
    const events = webhookEventsOf(syncChange(completed, { ...completed, current_file: null }));

    // Assert
    expect(events).toEqual([]);
  });

  it('sends nothing for a sync that failed or is still running', () => {
    // Arrange
    const running = aSyncJob('src-1', { state: 'running' });

    // Act
    const failed = webhookEventsOf(syncChange(running, { ...running, state: 'failed', failure: 'boom' }));
    const progressed = webhookEventsOf(syncChange(running, { ...running, processed: 5 }));

    // Assert
    expect(failed).toEqual([]);
    expect(progressed).toEqual([]);
  });
});

describe('webhookEventsOf: other entities', () => {
  it('sends nothing for a label, a document content or an OCR job change', () => {
    // Arrange
    const base = { id: 'chg-x', sequence: '1', at: AT, workspaceId: 'w-1' };
    const changes: ItemChange[] = [
      { ...base, entity: 'label', labelId: 'lbl-1', old: null, new: { id: 'lbl-1', name: 'tax', color: '#ff0000' } as never },
      { ...base, entity: 'document_content', documentId: 'doc-1', old: null, new: { text: 'extracted' } as never },
      { ...base, entity: 'ocr_job', documentId: 'doc-1', old: null, new: { document_id: 'doc-1' } as never },
    ];

    // Act
    const events = changes.flatMap((change) => webhookEventsOf(change));

    // Assert
    expect(events).toEqual([]);
  });
});

describe('event and delivery ids', () => {
  it('gives the same change the same event ids however often it is read', () => {
    // Arrange
    const change = documentChange(null, aDocument({ labels: ['lbl-a', 'lbl-b'] }));

    // Act
    const first = webhookEventsOf(change).map((event) => event.id);
    const again = webhookEventsOf(structuredClone(change)).map((event) => event.id);

    // Assert
    expect(again).toEqual(first);
  });

  it('gives different changes different event ids, and each event of one change its own id', () => {
    // Arrange
    const document = aDocument({ labels: ['lbl-a', 'lbl-b'] });

    // Act
    const first = webhookEventsOf(documentChange(null, document, 'chg-1')).map((event) => event.id);
    const second = webhookEventsOf(documentChange(null, document, 'chg-2')).map((event) => event.id);

    // Assert
    expect(new Set(first).size).toBe(3);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
  });

  it('gives one event a delivery id per endpoint, the same each time', () => {
    // Arrange
    const [event] = webhookEventsOf(documentChange(null, aDocument()));

    // Act
    const toA = deliveryIdOf(event!.id, 'wh-a');
    const toB = deliveryIdOf(event!.id, 'wh-b');

    // Assert
    expect(toA).toMatch(/^msg_/);
    expect(toA).not.toBe(toB);
    expect(deliveryIdOf(event!.id, 'wh-a')).toBe(toA);
  });
});
