import { beforeAll, describe, expect, it } from 'vitest';
import { ocrQueueStatus } from '../../../../shared/domain/ocr/queue-status';
import { ManualClock } from '../../../support/builders';
import { domainStores } from '../workspace-stores';
import { aQueuedDocument, claim, completeRun } from './ocr-setup';

describe('ocrQueueStatus', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it("counts the workspace's pending, processing and failed jobs and today's completions", async () => {
    // Arrange
    const w = stores.inWorkspace();
    await aQueuedDocument(w);
    await claim(w, await aQueuedDocument(w));
    await completeRun(w, await aQueuedDocument(w), 3);
    const failed = await aQueuedDocument(w);
    await w.ocrJobs.fail(failed.id, 1, 'unreadable', new Date().toISOString());

    // Act
    const status = await ocrQueueStatus({ ...w, ocrWorkers: 1 });

    // Assert
    expect(status).toMatchObject({ pending: 1, processing: 1, completed_today: 1, failed: 1, average_processing_time: 3 });
  });

  it('estimates the queue empty after the jobs left times the mean time, shared among the workers', async () => {
    // Arrange
    const now = new Date();
    const w = { ...stores.inWorkspace(), clock: new ManualClock(now) };
    await completeRun(w, await aQueuedDocument(w), 10);
    for (let i = 0; i < 4; i++) await aQueuedDocument(w);

    // Act
    const status = await ocrQueueStatus({ ...w, ocrWorkers: 2 });

    // Assert
    expect(status.estimated_completion).toBe(new Date(now.getTime() + 20_000).toISOString());
  });

  it('estimates now for an empty queue, whatever the workers', async () => {
    // Arrange
    const now = new Date();
    const w = { ...stores.inWorkspace(), clock: new ManualClock(now) };

    // Act
    const status = await ocrQueueStatus({ ...w, ocrWorkers: 0 });

    // Assert
    expect(status).toEqual({ pending: 0, processing: 0, completed_today: 0, failed: 0, average_processing_time: 0, estimated_completion: now.toISOString() });
  });
});
