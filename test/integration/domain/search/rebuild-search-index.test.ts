import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildSearchIndex } from '../../../../shared/domain/search/rebuild-search-index';
import { aSearchRequest } from '../../../support/builders';
import { aStoredDocument } from '../documents/document-setup';
import { domainStores } from '../workspace-stores';
import { anIndexedDocument, memoryIndex } from './search-setup';

describe('rebuildSearchIndex', () => {
  let stores: Awaited<ReturnType<typeof domainStores>>;
  const index = memoryIndex();

  beforeAll(async () => {
    stores = await domainStores();
  });

  afterAll(() => index.close());

  const deps = () => ({ index, workspaces: stores.workspaces, inWorkspace: (workspaceId: string) => ({ ...stores.inWorkspace(workspaceId), index: index.forWorkspace(workspaceId) }) });

  /** A workspace stored in the table, as the rebuild lists them. */
  const storedWorkspace = async () => {
    const w = stores.inWorkspace();
    await stores.workspaces.create({ id: w.workspaceId, name: 'Search', created_at: new Date().toISOString() });
    return w;
  };

  const titled = async (workspaceId: string, word: string) =>
    (await index.forWorkspace(workspaceId).search(aSearchRequest({ query: { kind: 'term', field: 'title', value: word } }))).results.map((hit) => hit.document_id);

  it("indexes every workspace's documents from the table, each in its own workspace", async () => {
    // Arrange
    const [one, two] = [await storedWorkspace(), await storedWorkspace()];
    const first = await aStoredDocument(one, { title: 'Harbour' });
    const second = await aStoredDocument(two, { title: 'Harbour' });

    // Act
    await rebuildSearchIndex(deps(), { concurrency: 2 });

    // Assert
    expect([await titled(one.workspaceId, 'harbour'), await titled(two.workspaceId, 'harbour')]).toEqual([[first.id], [second.id]]);
  });

  it('drops entries the table no longer has', async () => {
    // Arrange
    const w = await storedWorkspace();
    const stale = anIndexedDocument('', { title: 'Orphan' });
    await index.forWorkspace(w.workspaceId).upsert(stale);

    // Act
    await rebuildSearchIndex(deps());

    // Assert
    expect(await titled(w.workspaceId, 'orphan')).toEqual([]);
  });

  it('counts the documents it indexed and reports its progress by batch', async () => {
    // Arrange
    const own = await domainStores();
    const w = own.inWorkspace();
    await own.workspaces.create({ id: w.workspaceId, name: 'Counted', created_at: new Date().toISOString() });
    for (let i = 0; i < 5; i++) await aStoredDocument(w);
    const progress: number[] = [];

    // Act
    const indexed = await rebuildSearchIndex(
      { index, workspaces: own.workspaces, inWorkspace: (workspaceId) => ({ ...own.inWorkspace(workspaceId), index: index.forWorkspace(workspaceId) }) },
      { concurrency: 2, onProgress: (count) => progress.push(count) },
    );

    // Assert
    expect({ indexed, progress }).toEqual({ indexed: 5, progress: [2, 4, 5] });
  });
});
