import { beforeAll, describe, expect, it } from 'vitest';
import { listSources } from '../../../../shared/domain/sources/list-sources';
import { aDocumentRecord } from '../../../support/builders';
import { sourceWorld, storedSource, type SourceWorld } from './source-world';

const URL = 'https://dav.example.com/scans/';

/** A workspace's sources, listed from DynamoDB Local. */
describe('listSources', () => {
  let world: SourceWorld;

  beforeAll(async () => {
    world = await sourceWorld();
  });

  it("lists the workspace's sources, oldest first, each with the count of its documents", async () => {
    // Arrange
    const deps = world.inWorkspace();
    const older = await storedSource(deps, URL, { name: 'older', created_at: '2026-01-01T00:00:00.000Z' });
    const newer = await storedSource(deps, URL, { name: 'newer', created_at: '2026-01-02T00:00:00.000Z' });
    await deps.documents.create(aDocumentRecord({ source_id: newer.id }));
    await deps.documents.create(aDocumentRecord({ source_id: newer.id }));

    // Act
    const { sources } = await listSources(deps);

    // Assert
    expect(sources.map((s) => [s.id, s.document_count])).toEqual([
      [older.id, 0],
      [newer.id, 2],
    ]);
  });

  it("never lists another workspace's sources", async () => {
    // Arrange
    await storedSource(world.inWorkspace(), URL);

    // Act
    const listed = await listSources(world.inWorkspace());

    // Assert
    expect(listed).toEqual({ sources: [] });
  });

  it('shows each source without its password, with its status', async () => {
    // Arrange
    const deps = world.inWorkspace();
    await storedSource(deps, URL, { enabled: false });

    // Act
    const { sources } = await listSources(deps);

    // Assert
    expect(sources[0]).not.toHaveProperty('password_sealed');
    expect(sources[0]).toMatchObject({ status: 'disabled', enabled: false, next_sync: null });
  });
});
