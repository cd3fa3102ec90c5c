import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLIMITED_PLAN } from '../../../../shared/domain/quotas/plans';
import { createSource } from '../../../../shared/domain/sources/create-source';
import { deleteSource } from '../../../../shared/domain/sources/delete-source';
import { aDocumentRecord } from '../../../support/builders';
import { aNewSource, davFolders, sourceWorld, storedSource, type SourceWorld } from './source-world';

/** Deleting a source, with its stores on DynamoDB Local. */
describe('deleteSource', () => {
  let served: Awaited<ReturnType<typeof davFolders>>;
  let world: SourceWorld;

  beforeAll(async () => {
    served = await davFolders();
    world = await sourceWorld();
  });

  afterAll(async () => {
    await served?.stop();
  });

  it('deletes the source with its sync history and remembered tree', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await createSource(deps, aNewSource((await served.folder()).url));
    const jobId = (await deps.sources.get(source.id))!.current_job_id!;
    await deps.syncState.saveDirectory(source.id, '', '"etag"', new Map());

    // Act
    await deleteSource(deps, source.id);

    // Assert
    expect(await deps.sources.get(source.id)).toBeNull();
    expect(await deps.sources.getJob(source.id, jobId)).toBeNull();
    expect(await deps.syncState.directory(source.id, '')).toBeNull();
    expect(await deps.syncState.work(jobId, 'directory', 10)).toEqual([]);
  });

  it('keeps the documents that came from the source', async () => {
    // Arrange
    const deps = world.inWorkspace();
    const source = await storedSource(deps, (await served.folder()).url);
    const document = aDocumentRecord({ source_id: source.id });
    await deps.documents.create(document);

    // Act
    await deleteSource(deps, source.id);

    // Assert
    expect(await deps.documents.get(document.id)).toMatchObject({ id: document.id, source_id: source.id });
  });

  it("answers an unknown source, or another workspace's, NOT_FOUND", async () => {
    // Arrange
    const theirs = await storedSource(world.inWorkspace(), (await served.folder()).url);
    const deps = world.inWorkspace();

    // Act
    const [other, unknown] = await Promise.allSettled([deleteSource(deps, theirs.id), deleteSource(deps, crypto.randomUUID())]);

    // Assert
    expect(other).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    expect(unknown).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
  });

  it("gives the source's place back to a workspace at its sources limit", async () => {
    // Arrange
    const limited = await sourceWorld({ plans: { plans: { one: { ...UNLIMITED_PLAN, sources: 1 } }, defaultPlan: 'one' } });
    const deps = limited.inWorkspace();
    const first = await createSource(deps, aNewSource((await served.folder()).url));

    // Act
    await deleteSource(deps, first.id);

    // Assert
    await expect(createSource(deps, aNewSource((await served.folder()).url, { name: 'next' }))).resolves.toMatchObject({ name: 'next' });
  });
});
