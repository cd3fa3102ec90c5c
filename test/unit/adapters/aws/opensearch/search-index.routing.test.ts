import { describe, expect, it } from 'vitest';
import { OpenSearchSearchIndex } from '../../../../../shared/adapters/aws/opensearch/search-index';
import { aSearchRequest, anIndexedDocument } from '../../../../support/builders';
import { fakeOpenSearch, paramOf, type OpenSearchCall, type OpenSearchReply } from '../../../../support/opensearch-transport';

/*
 * Routing: every request about one workspace's entries carries `routing=<workspace id>`, so OpenSearch keeps
 * them on one shard and asks that shard only.
 */

const WORKSPACE = '3a3a0000-0000-4000-8000-000000000001';
const OTHER = '3a3a0000-0000-4000-8000-000000000002';

const document = anIndexedDocument();

/** Answers each kind of request with the smallest body the adapter reads. */
function replyOf(call: OpenSearchCall): OpenSearchReply {
  if (call.path.endsWith('/_search')) return { status: 200, body: { hits: { total: { value: 0 }, hits: [] }, aggregations: {} } };
  if (call.path.endsWith('/_mget')) return { status: 200, body: { docs: [] } };
  if (call.path.endsWith('/_delete_by_query')) return { status: 200, body: { deleted: 0 } };
  return { status: 201, body: { result: 'created' } };
}

describe('OpenSearchSearchIndex routing', () => {
  it("routes an upsert by the entry's workspace", async () => {
    // Arrange
    const { client, calls } = fakeOpenSearch(replyOf);

    // Act
    await new OpenSearchSearchIndex(client).forWorkspace(WORKSPACE).upsert(document);

    // Assert
    expect(paramOf(calls[0], 'routing')).toBe(WORKSPACE);
  });

  it("routes a removal's tombstone by the entry's workspace", async () => {
    // Arrange
    const { client, calls } = fakeOpenSearch(replyOf);

    // Act
    await new OpenSearchSearchIndex(client).forWorkspace(WORKSPACE).remove('d1', 4);

    // Assert
    expect(calls[0]).toMatchObject({ method: 'PUT', body: { deleted: true } });
    expect(paramOf(calls[0], 'routing')).toBe(WORKSPACE);
  });

  it("routes a search to the workspace's shard", async () => {
    // Arrange
    const { client, calls } = fakeOpenSearch(replyOf);

    // Act
    await new OpenSearchSearchIndex(client).forWorkspace(WORKSPACE).search(aSearchRequest());

    // Assert
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/documents/_search' });
    expect(paramOf(calls[0], 'routing')).toBe(WORKSPACE);
  });

  it("routes a page of the reconciliation's listing to the workspace's shard", async () => {
    // Arrange
    const { client, calls } = fakeOpenSearch(replyOf);

    // Act
    await new OpenSearchSearchIndex(client).listingOf(WORKSPACE).entries({ cursor: null, limit: 10 });

    // Assert
    expect(calls[0]).toMatchObject({ path: '/documents/_search' });
    expect(paramOf(calls[0], 'routing')).toBe(WORKSPACE);
  });

  it("routes every chunk of the listing's multi-get to the workspace's shard", async () => {
    // Arrange
    const { client, calls } = fakeOpenSearch(replyOf);
    const ids = Array.from({ length: 501 }, (_, i) => `d${i}`);

    // Act
    await new OpenSearchSearchIndex(client).listingOf(WORKSPACE).entriesOf(ids);

    // Assert
    expect(calls.map((call) => call.path)).toEqual(['/documents/_mget', '/documents/_mget']);
    expect(calls.map((call) => paramOf(call, 'routing'))).toEqual([WORKSPACE, WORKSPACE]);
  });

  it("routes a workspace's erasure to its shard, still filtered by the workspace", async () => {
    // Arrange
    const { client, calls } = fakeOpenSearch(replyOf);

    // Act
    await new OpenSearchSearchIndex(client).eraseWorkspace(WORKSPACE);

    // Assert
    expect(calls[0]).toMatchObject({ path: '/documents/_delete_by_query', body: { query: { term: { workspace_id: WORKSPACE } } } });
    expect(paramOf(calls[0], 'routing')).toBe(WORKSPACE);
  });

  it('routes each workspace by its own id when two share one store', async () => {
    // Arrange
    const { client, calls } = fakeOpenSearch(replyOf);
    const store = new OpenSearchSearchIndex(client);

    // Act
    await store.forWorkspace(WORKSPACE).upsert(document);
    await store.forWorkspace(OTHER).upsert(document);
    await store.forWorkspace(OTHER).search(aSearchRequest());

    // Assert
    expect(calls.map((call) => paramOf(call, 'routing'))).toEqual([WORKSPACE, OTHER, OTHER]);
  });

  it('clears every workspace without routing, so that every shard is emptied', async () => {
    // Arrange
    const { client, calls } = fakeOpenSearch(replyOf);

    // Act
    await new OpenSearchSearchIndex(client).clear();

    // Assert
    expect(calls[0]).toMatchObject({ path: '/documents/_delete_by_query', body: { query: { match_all: {} } } });
    expect(paramOf(calls[0], 'routing')).toBeNull();
  });
});
