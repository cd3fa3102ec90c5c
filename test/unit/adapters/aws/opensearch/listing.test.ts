import { describe, expect, it } from 'vitest';
import { OpenSearchSearchIndex } from '../../../../../shared/adapters/aws/opensearch/search-index';
import { fakeOpenSearch } from '../../../../support/opensearch-transport';

/** The transport answers every request with `body` (the real engine runs the listing's contract cases when OPENSEARCH_URL is set). */
const fakeClient = (body: () => unknown) => fakeOpenSearch(() => ({ status: 200, body: body() }));

const WORKSPACE = '3a3a0000-0000-4000-8000-000000000001';
const hit = (id: string, version: number) => ({ _id: `${WORKSPACE}:${id}`, _version: version, sort: [id] });

describe('OpenSearchSearchIndex listing', () => {
  it("lists the workspace's live entries by id, with their external versions", async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ hits: { hits: [hit('d1', 3), hit('d2', 1)] } }));
    const listing = new OpenSearchSearchIndex(client).listingOf(WORKSPACE);

    // Act
    const page = await listing.entries({ limit: 2 });

    // Assert
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/documents/_search' });
    expect(calls[0]!.body).toMatchObject({
      size: 2,
      version: true,
      _source: false,
      sort: [{ id: 'asc' }],
      query: { bool: { filter: [{ term: { workspace_id: WORKSPACE } }, { term: { deleted: false } }] } },
    });
    expect(page).toEqual({ entries: [{ id: 'd1', version: 3 }, { id: 'd2', version: 1 }], cursor: 'd2' });
  });

  it('continues after the cursor and ends with a short page', async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ hits: { hits: [hit('d3', 2)] } }));
    const listing = new OpenSearchSearchIndex(client).listingOf(WORKSPACE);

    // Act
    const page = await listing.entries({ cursor: 'd2', limit: 2 });

    // Assert
    expect(calls[0]!.body).toMatchObject({ search_after: ['d2'] });
    expect(page).toEqual({ entries: [{ id: 'd3', version: 2 }], cursor: null });
  });

  it("looks entries up by the workspace's entry ids, in real time, leaving out absent ones and tombstones", async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({
      docs: [
        { _id: `${WORKSPACE}:d1`, found: true, _version: 4, _source: { deleted: false } },
        { _id: `${WORKSPACE}:d2`, found: true, _version: 9, _source: { deleted: true } },
        { _id: `${WORKSPACE}:d3`, found: false },
      ],
    }));
    const listing = new OpenSearchSearchIndex(client).listingOf(WORKSPACE);

    // Act
    const entries = await listing.entriesOf(['d1', 'd2', 'd3']);

    // Assert
    expect(calls[0]).toMatchObject({ path: '/documents/_mget' });
    expect(calls[0]!.body).toEqual({ docs: ['d1', 'd2', 'd3'].map((id) => ({ _id: `${WORKSPACE}:${id}`, _source: ['deleted'] })) });
    expect(entries).toEqual([{ id: 'd1', version: 4 }]);
  });

  it('asks nothing for no ids', async () => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ docs: [] }));
    const listing = new OpenSearchSearchIndex(client).listingOf(WORKSPACE);

    // Act
    const entries = await listing.entriesOf([]);

    // Assert
    expect(entries).toEqual([]);
    expect(calls).toEqual([]);
  });
});
