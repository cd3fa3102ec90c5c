import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS_DAYS, ocrMetrics } from '../../../../shared/domain/ocr/ocr-metrics';
import { ManualClock } from '../../../support/builders';
import { domainStores } from '../workspace-stores';
import { aQueuedDocument, completeRun } from './ocr-setup';

describe('ocrMetrics', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;

  beforeAll(async () => {
    stores = await domainStores();
  });

  it('reports the runs finished, the success rate and the mean time of the completed ones, by language', async () => {
    // Arrange
    const w = stores.inWorkspace();
    const [fast, slow, broken] = [await aQueuedDocument(w), await aQueuedDocument(w, { language: 'deu' }), await aQueuedDocument(w)];
    await completeRun(w, fast, 2);
    await completeRun(w, slow, 4);
    await w.ocrJobs.fail(broken.id, 1, 'unreadable', new Date().toISOString());

    // Act
    const metrics = await ocrMetrics(w);

    // Assert
    expect(metrics).toMatchObject({ total_processed: 3, success_rate: 0.667, average_processing_time: 3, languages_used: { eng: 2, deu: 1 } });
  });

  it("reports today's runs among the daily stats", async () => {
    // Arrange
    const w = stores.inWorkspace();
    await completeRun(w, await aQueuedDocument(w), 5);

    // Act
    const { daily_stats } = await ocrMetrics(w);

    // Assert
    expect(daily_stats).toEqual([{ date: new Date().toISOString().slice(0, 10), processed: 1, completed: 1, failed: 0, average_processing_time: 5 }]);
  });

  it(`leaves out days more than ${METRICS_DAYS} days ago`, async () => {
    // Arrange
    const w = stores.inWorkspace();
    await completeRun(w, await aQueuedDocument(w), 5);
    const later = { ...w, clock: new ManualClock(new Date(Date.now() + METRICS_DAYS * 86_400_000)) };

    // Act
    const metrics = await ocrMetrics(later);

    // Assert
    expect({ processed: metrics.total_processed, days: metrics.daily_stats }).toEqual({ processed: 1, days: [] });
  });

  it('reports zeros, not a division by zero, before any run finished', async () => {
    // Arrange
    const w = stores.inWorkspace();

    // Act
    const metrics = await ocrMetrics(w);

    // Assert
    expect(metrics).toEqual({ total_processed: 0, success_rate: 0, average_processing_time: 0, languages_used: {}, daily_stats: [] });
  });

  it("counts none of another workspace's runs", async () => {
    // Arrange
    const [mine, theirs] = [stores.inWorkspace(), stores.inWorkspace()];
    await completeRun(theirs, await aQueuedDocument(theirs), 1);

    // Act
    const metrics = await ocrMetrics(mine);

    // Assert
    expect(metrics.total_processed).toBe(0);
  });
});
