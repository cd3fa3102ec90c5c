import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSource } from '../../../../shared/domain/sources/update-source';
import { DAV_USER, davFolders, sourceWorld, storedSource, type SourceWorld } from './source-world';

/** Changing a source, against a real WebDAV server, with its stores on DynamoDB Local. */
describe('updateSource', () => {
  let served: Awaited<ReturnType<typeof davFolders>>;
  let world: SourceWorld;

  beforeAll(async () => {
    served = await davFolders();
    world = await sourceWorld();
  });

  afterAll(async () => {
    await served?.stop();
  });

  it('changes the name and moves the next sync to an interval after the last one', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, (await served.folder()).url);

    // Act
    const view = await updateSource(deps, source.id, { name: 'Invoices', syncInterval: 7200 });

    // Assert
    expect(view).toMatchObject({ name: 'Invoices', sync_interval: 7200, next_sync: new Date(Date.parse(source.last_sync!) + 7_200_000).toISOString() });
    expect(view.updated_at).toBe(deps.clock.now().toISOString());
  });

  it('checks a new URL against the server, clears the error and compares every file on the next sync', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, (await served.folder()).url, { error: 'url: could not be reached' });
    const moved = (await served.folder()).url;

    // Act
    const view = await updateSource(deps, source.id, { url: moved });

    // Assert
    expect(view).toMatchObject({ url: moved, status: 'active', status_reason: null });
    expect(await deps.sources.get(source.id)).toMatchObject({ last_full_walk: null, error: null });
  });

  it('refuses a new password the server does not accept, keeping the stored one', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, (await served.folder()).url);

    // Act
    const attempt = updateSource(deps, source.id, { password: 'wrong-password' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'password' } });
    const stored = (await deps.sources.get(source.id))!;
    expect(await deps.vault.open(stored.password_sealed, { workspaceId: deps.workspaceId, sourceId: source.id })).toBe(DAV_USER.password);
  });

  it('refuses a URL the stored credentials cannot read, changing nothing', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, (await served.folder()).url);

    // Act
    const attempt = updateSource(deps, source.id, { url: `${served.dav.url}${crypto.randomUUID()}` });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url' } });
    expect((await deps.sources.get(source.id))!.url).toBe(source.url);
  });

  it('compares every file on the next sync once the file patterns change', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, (await served.folder()).url, { file_patterns: ['*.pdf'] });

    // Act
    const view = await updateSource(deps, source.id, { filePatterns: ['*.pdf', '*.png'] });

    // Assert
    expect(view.file_patterns).toEqual(['*.pdf', '*.png']);
    expect((await deps.sources.get(source.id))!.last_full_walk).toBeNull();
  });

  it("answers another workspace's source NOT_FOUND", async () => {
    // Arrange
    const source = await storedSource(world.inWorkspace(), (await served.folder()).url);

    // Act
    const attempt = updateSource(world.inWorkspace(), source.id, { name: 'taken over' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Source', id: source.id } });
  });
});
