import { describe, expect, it } from 'vitest';
import { toSyncStatusView } from '../../../../shared/domain/sources/sync-job';
import { aSyncJob } from '../../../support/builders';

describe('toSyncStatusView', () => {
  it('leaves out who started the sync, how, and whether it walks every file', () => {
    // Act
    const view = toSyncStatusView(aSyncJob('source-1', { trigger: 'manual', started_by: 'editor', full_walk: true }));

    // Assert
    expect(view).not.toHaveProperty('trigger');
    expect(view).not.toHaveProperty('started_by');
    expect(view).not.toHaveProperty('full_walk');
  });

  it('keeps the counts, progress, errors and times as the job holds them', () => {
    // Arrange
    const job = aSyncJob('source-1', { state: 'running', new: 2, skipped: 1, processed: 3, total: 9, current_file: 'a/b.pdf', errors: [{ path: 'x.pdf', reason: 'empty' }], started_at: '2026-01-01T00:00:01.000Z' });

    // Act
    const view = toSyncStatusView(job);

    // Assert
    expect(view).toEqual({
      job_id: job.job_id,
      source_id: 'source-1',
      state: 'running',
      processed: 3,
      total: 9,
      current_file: 'a/b.pdf',
      queued_at: job.queued_at,
      started_at: '2026-01-01T00:00:01.000Z',
      finished_at: null,
      new: 2,
      changed: 0,
      unchanged: 0,
      skipped: 1,
      duplicates: 0,
      failed: 0,
      errors: [{ path: 'x.pdf', reason: 'empty' }],
      failure: null,
    });
  });
});
