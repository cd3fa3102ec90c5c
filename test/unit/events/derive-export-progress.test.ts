import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../shared/domain/changes/ports';
import { deriveEvents } from '../../../shared/domain/events/derive-events';
import type { ExportJob } from '../../../shared/domain/portability/jobs';

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

describe('export_progress', () => {
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
