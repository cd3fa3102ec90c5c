import { describe, expect, it } from 'vitest';
import type { ItemChange } from '../../../shared/domain/changes/ports';
import { deriveEvents } from '../../../shared/domain/events/derive-events';
import type { SyncJob } from '../../../shared/domain/sources/sync-job';
import { aSyncJob } from '../../support/builders';

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

describe('sync_progress derived from a change of a sync job', () => {
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
