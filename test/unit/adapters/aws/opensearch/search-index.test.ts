import { describe, expect, it } from 'vitest';
import { ADOPT_SCRIPT } from '../../../../../shared/adapters/aws/opensearch/query';
import { OpenSearchSearchIndex } from '../../../../../shared/adapters/aws/opensearch/search-index';
import { aSearchRequest, anIndexedDocument } from '../../../../support/builders';
import { fakeOpenSearch as fakeClient, paramOf } from '../../../../support/opensearch-transport';

const document = anIndexedDocument();

const ok = { status: 200, body: { acknowledged: true } };
const WORKSPACE = '3a3a0000-0000-4000-8000-000000000001';
const OTHER = '3a3a0000-0000-4000-8000-000000000002';
/** The path of the workspace's entry for document d1. */
const D1 = `/documents/_doc/${encodeURIComponent(`${WORKSPACE}:d1`)}`;

describe('OpenSearchSearchIndex', () => {
  it("upserts the workspace's entry through the alias with the document version as an external version", async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ status: 201, body: { result: 'created' } }));
    const index = new OpenSearchSearchIndex(client).forWorkspace(WORKSPACE);

    // Act
    await index.upsert(document);

    // Assert
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'PUT', path: D1, body: { id: 'd1', workspace_id: WORKSPACE, title: 'Invoice', deleted: false } });
    expect(paramOf(calls[0], 'version')).toBe('4');
    expect(paramOf(calls[0], 'version_type')).toBe('external_gte');
  });

  it('takes a version conflict as a stale write, done', async () => {
    // Arrange
    const { client } = fakeClient(() => ({ status: 409, body: { error: { type: 'version_conflict_engine_exception' }, status: 409 } }));
    const index = new OpenSearchSearchIndex(client).forWorkspace(WORKSPACE);

    // Act
    const write = index.upsert(document);

    // Assert
    await expect(write).resolves.toBeUndefined();
  });

  it('fails on any other error', async () => {
    // Arrange
    const { client } = fakeClient(() => ({ status: 400, body: { error: { type: 'mapper_parsing_exception' }, status: 400 } }));
    const index = new OpenSearchSearchIndex(client).forWorkspace(WORKSPACE);

    // Act
    const write = index.upsert(document);

    // Assert
    await expect(write).rejects.toMatchObject({ meta: { statusCode: 400 } });
  });

  it("removes by writing the workspace's tombstone one version above the removal", async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ status: 200, body: { result: 'updated' } }));
    const index = new OpenSearchSearchIndex(client).forWorkspace(WORKSPACE);

    // Act
    await index.remove('d1', 7);

    // Assert
    expect(calls[0]).toMatchObject({ method: 'PUT', path: D1, body: { id: 'd1', workspace_id: WORKSPACE, deleted: true } });
    expect(paramOf(calls[0], 'version')).toBe('8');
  });

  it('searches the alias, filtered by the workspace, and reads the results', async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({
      status: 200,
      body: { hits: { total: { value: 1 }, hits: [{ _id: `${WORKSPACE}:d1`, _score: 1.5, _source: { id: 'd1', title: 'Invoice' } }] }, aggregations: {} },
    }));
    const index = new OpenSearchSearchIndex(client).forWorkspace(WORKSPACE);

    // Act
    const results = await index.search(aSearchRequest({ highlight: false }));

    // Assert
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/documents/_search' });
    expect((calls[0]!.body as { query: { bool: { filter: unknown[] } } }).query.bool.filter[0]).toEqual({ term: { workspace_id: WORKSPACE } });
    expect(results.results).toEqual([{ document_id: 'd1', title: 'Invoice', score: 1.5, highlights: [] }]);
  });

  it("never writes another workspace's entry: the same document id from two workspaces is two entries", async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ status: 201, body: { result: 'created' } }));
    const store = new OpenSearchSearchIndex(client);

    // Act
    await store.forWorkspace(WORKSPACE).upsert(document);
    await store.forWorkspace(OTHER).upsert({ ...document, version: 9 });
    await store.forWorkspace(OTHER).remove(document.id, 9);

    // Assert
    expect(calls.map((call) => call.path)).toEqual([D1, `/documents/_doc/${encodeURIComponent(`${OTHER}:d1`)}`, `/documents/_doc/${encodeURIComponent(`${OTHER}:d1`)}`]);
    expect(calls.map((call) => (call.body as { workspace_id: string }).workspace_id)).toEqual([WORKSPACE, OTHER, OTHER]);
  });

  it('refuses a view without a workspace id', () => {
    // Arrange
    const { client } = fakeClient(() => ok);
    const store = new OpenSearchSearchIndex(client);

    // Act
    const view = () => store.forWorkspace('');

    // Assert
    expect(view).toThrow(/workspace/);
  });

  it('clears every workspace with one delete by query', async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ status: 200, body: { deleted: 3 } }));
    const store = new OpenSearchSearchIndex(client);

    // Act
    await store.clear();

    // Assert
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/documents/_delete_by_query', body: { query: { match_all: {} } } });
  });

  it('sets the replica count on the index behind the alias', async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ok);
    const index = new OpenSearchSearchIndex(client);

    // Act
    await index.setReplicas(1);

    // Assert
    expect(calls).toEqual([
      { method: 'PUT', path: '/documents/_settings', querystring: '', body: { index: { number_of_replicas: 1 } } },
    ]);
  });

  it('creates the versioned index with its alias when neither exists', async () => {
    // Arrange
    const { client, calls } = fakeClient((call) => (call.method === 'PUT' ? ok : { status: 404, body: { error: 'missing', status: 404 } }));
    const index = new OpenSearchSearchIndex(client);

    // Act
    const outcome = await index.migrate();

    // Assert
    expect(outcome).toBe('created');
    expect(calls.at(-1)).toMatchObject({ method: 'PUT', path: '/documents-v3', body: { aliases: { documents: {} } } });
  });

  it('does nothing when the alias already points at the current version', async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ status: 200, body: { 'documents-v3': { aliases: { documents: {} } } } }));
    const index = new OpenSearchSearchIndex(client);

    // Act
    const outcome = await index.migrate();

    // Assert
    expect(outcome).toBe('up-to-date');
    expect(calls).toHaveLength(1);
  });

  it('migrates from an older version: create, copy with versions into workspaces, swap the alias atomically, copy again', async () => {
    // Arrange
    const { client, calls } = fakeClient((call) => {
      if (call.path.startsWith('/_alias')) return { status: 200, body: { 'documents-v2': { aliases: { documents: {} } } } };
      if (call.method === 'HEAD') return { status: 404, body: {} };
      return ok;
    });
    const index = new OpenSearchSearchIndex(client);

    // Act
    const outcome = await index.migrate();

    // Assert
    expect(outcome).toEqual({ migratedFrom: 'documents-v2' });
    expect(calls.slice(1).map((call) => `${call.method} ${call.path}`)).toEqual([
      'HEAD /documents-v3',
      'PUT /documents-v3',
      'POST /_reindex',
      'POST /_aliases',
      'POST /_reindex',
    ]);
    expect(calls[3]!.body).toMatchObject({ source: { index: 'documents-v2' }, dest: { index: 'documents-v3', version_type: 'external_gte' }, script: ADOPT_SCRIPT });
    expect(calls[5]!.body).toMatchObject({ script: ADOPT_SCRIPT });
    expect(calls[4]!.body).toEqual({
      actions: [{ remove: { index: 'documents-v2', alias: 'documents' } }, { add: { index: 'documents-v3', alias: 'documents' } }],
    });
  });

  it('resumes a migration cut short: the new index left without the alias is copied into again, not created', async () => {
    // Arrange
    const { client, calls } = fakeClient((call) =>
      call.path.startsWith('/_alias') ? { status: 200, body: { 'documents-v2': { aliases: { documents: {} } } } } : ok,
    );
    const index = new OpenSearchSearchIndex(client);

    // Act
    const outcome = await index.migrate();

    // Assert
    expect(outcome).toEqual({ migratedFrom: 'documents-v2' });
    expect(calls.slice(1).map((call) => `${call.method} ${call.path}`)).toEqual(['HEAD /documents-v3', 'POST /_reindex', 'POST /_aliases', 'POST /_reindex']);
  });
});
