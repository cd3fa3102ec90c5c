import { beforeAll, describe, expect, it } from 'vitest';
import { startSync } from '../../../../shared/domain/sources/start-sync';
import { syncStatus } from '../../../../shared/domain/sources/sync-status';
import { sourceWorld, storedSource, type SourceWorld } from './source-world';

const URL = 'https://dav.example.com/scans/';

/** The state of a source's sync, read from DynamoDB Local. */
describe('syncStatus', () => {
  let world: SourceWorld;

  beforeAll(async () => {
    world = await sourceWorld();
  });

  it('answers the running sync, without who started it or how', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, URL);
    const { job_id } = await startSync(deps, source.id, { trigger: 'manual', by: 'editor-id' });

    // Act
    const status = await syncStatus(deps, source.id);

    // Assert
    expect(status).toMatchObject({ job_id, source_id: source.id, state: 'queued', processed: 0, total: 0, errors: [], failure: null });
    expect(status).not.toHaveProperty('started_by');
    expect(status).not.toHaveProperty('trigger');
    expect(status).not.toHaveProperty('full_walk');
  });

  it('answers the last sync once it finished', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, URL);
    const { job_id } = await startSync(deps, source.id, { trigger: 'schedule', by: null });
    const at = deps.clock.now().toISOString();
    await deps.sources.finishJob(source.id, job_id, { state: 'completed', finishedAt: at, failure: null, source: { error: null, last_sync: at, next_sync: at } });

    // Act
    const status = await syncStatus(deps, source.id);

    // Assert
    expect(status).toMatchObject({ job_id, state: 'completed', finished_at: at });
  });

  it('answers a source that never synced NOT_FOUND, naming the sync', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, URL);

    // Act
    const attempt = syncStatus(deps, source.id);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Sync', id: source.id } });
  });

  it("answers another workspace's source NOT_FOUND", async () => {
    // Arrange
    const theirs = world.inWorkspace();
    const source = await storedSource(theirs, URL);
    await startSync(theirs, source.id, { trigger: 'schedule', by: null });

    // Act
    const attempt = syncStatus(world.inWorkspace(), source.id);

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Source' } });
  });
});
