import { beforeAll, describe, expect, it } from 'vitest';
import { SqsSyncQueue } from '../../../../shared/adapters/aws/sqs/sync-queue';
import { FULL_WALK_INTERVAL_SECONDS, startSync } from '../../../../shared/domain/sources/start-sync';
import { sourceWorld, storedSource, type SourceWorld } from './source-world';

const URL = 'https://dav.example.com/scans/';

/** Starting a sync, with the source stores on DynamoDB Local and the sync queue on the SQS emulator. */
describe('startSync', () => {
  let world: SourceWorld;

  beforeAll(async () => {
    world = await sourceWorld();
  });

  it("records a queued sync as the source's current one and queues its first step, the root", async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, URL);
    await world.syncMessages();

    // Act
    const { job_id } = await startSync(deps, source.id, { trigger: 'manual', by: 'editor-id' });

    // Assert
    expect(await deps.sources.get(source.id)).toMatchObject({ current_job_id: job_id, last_job_id: job_id });
    expect(await deps.sources.getJob(source.id, job_id)).toMatchObject({ state: 'queued', trigger: 'manual', started_by: 'editor-id', queued_at: deps.clock.now().toISOString() });
    expect(await deps.syncState.work(job_id, 'directory', 10)).toEqual([{ kind: 'directory', path: '', etag: null }]);
    expect(await world.syncMessages()).toEqual([{ workspace_id: deps.workspaceId, source_id: source.id, job_id }]);
  });

  it('refuses a second sync while one runs, naming the running one', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, URL);
    const running = await startSync(deps, source.id, { trigger: 'schedule', by: null });

    // Act
    const attempt = startSync(deps, source.id, { trigger: 'manual', by: 'editor-id' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'sync_running', source_id: source.id, job_id: running.job_id } });
  });

  it('compares every file when the last full walk is a day old, and trusts directory ETags before', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const now = deps.clock.now().getTime();
    const stale = await storedSource(deps, URL, { last_full_walk: new Date(now - FULL_WALK_INTERVAL_SECONDS * 1000).toISOString() });
    const fresh = await storedSource(deps, URL, { last_full_walk: new Date(now - 60_000).toISOString() });

    // Act
    const [staleJob, freshJob] = [await startSync(deps, stale.id, { trigger: 'schedule', by: null }), await startSync(deps, fresh.id, { trigger: 'schedule', by: null })];

    // Assert
    expect((await deps.sources.getJob(stale.id, staleJob.job_id))!.full_walk).toBe(true);
    expect((await deps.sources.getJob(fresh.id, freshJob.job_id))!.full_walk).toBe(false);
  });

  it('ends as failed at once a sync that cannot be queued, leaving the source idle', async () => {
    // Arrange
    const deps = { ...world.inWorkspace(), syncQueue: new SqsSyncQueue(world.sqs, `${world.queues.normal.queueUrl}-missing`) };
    const source = await storedSource(deps, URL);

    // Act
    const attempt = startSync(deps, source.id, { trigger: 'manual', by: 'editor-id' });

    // Assert
    await expect(attempt).rejects.toThrow();
    const after = (await deps.sources.get(source.id))!;
    expect(after.current_job_id).toBeNull();
    expect(await deps.sources.getJob(source.id, after.last_job_id!)).toMatchObject({ state: 'failed', failure: 'the sync could not be queued' });
  });

  it('answers an unknown source NOT_FOUND', async () => {
    // Act
    const attempt = startSync(world.inWorkspace(), crypto.randomUUID(), { trigger: 'manual', by: null });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Source' } });
  });
});
