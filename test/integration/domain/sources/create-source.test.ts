import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLIMITED_PLAN } from '../../../../shared/domain/quotas/plans';
import { createSource } from '../../../../shared/domain/sources/create-source';
import { aNewSource, davFolders, sourceWorld, type SourceWorld } from './source-world';

/** Adding a source, against a real WebDAV server, with its stores on DynamoDB Local and its queue on the SQS emulator. */
describe('createSource', () => {
  let served: Awaited<ReturnType<typeof davFolders>>;
  let world: SourceWorld;

  beforeAll(async () => {
    served = await davFolders();
    world = await sourceWorld();
  });

  afterAll(async () => {
    await served?.stop();
  });

  it('stores the source with its password sealed and answers it without the password', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const { url } = await served.folder();

    // Act
    const view = await createSource(deps, aNewSource(url.slice(0, -1)));

    // Assert
    expect(view).toMatchObject({ name: 'Scans', type: 'webdav', url, username: 'sync', enabled: true, document_count: 0 });
    expect(JSON.stringify(view)).not.toContain('sync-password');
    const stored = (await deps.sources.get(view.id))!;
    expect(stored.password_sealed).not.toContain('sync-password');
    expect(await deps.vault.open(stored.password_sealed, { workspaceId: deps.workspaceId, sourceId: view.id })).toBe('sync-password');
  });

  it('starts its first sync at once, as a manual one of its creator, its step queued', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const { url } = await served.folder();
    await world.syncMessages();

    // Act
    const view = await createSource(deps, aNewSource(url, { createdBy: 'creator-id' }));

    // Assert
    expect(view.status).toBe('syncing');
    const jobId = (await deps.sources.get(view.id))!.current_job_id!;
    expect(await deps.sources.getJob(view.id, jobId)).toMatchObject({ state: 'queued', trigger: 'manual', started_by: 'creator-id', full_walk: true });
    expect(await world.syncMessages()).toEqual([{ workspace_id: deps.workspaceId, source_id: view.id, job_id: jobId }]);
  });

  it('refuses a folder its credentials cannot read, naming the field, and stores nothing', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const { url } = await served.folder();

    // Act
    const attempt = createSource(deps, aNewSource(url, { password: 'not-the-password' }));

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'password' } });
    expect(await deps.sources.list()).toEqual([]);
  });

  it("refuses a source past the plan's sources limit with quota_exceeded", async () => {
    // Arrange
    const limited = await sourceWorld({ plans: { plans: { one: { ...UNLIMITED_PLAN, sources: 1 } }, defaultPlan: 'one' } });
    const deps = limited.inWorkspace();
    await createSource(deps, aNewSource((await served.folder()).url, { name: 'first' }));

    // Act
    const attempt = createSource(deps, aNewSource((await served.folder()).url, { name: 'second' }));

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'FORBIDDEN', details: { reason: 'quota_exceeded', quota: 'sources', limit: 1, used: 1 } });
    expect((await deps.sources.list()).map((s) => s.name)).toEqual(['first']);
  });
});
