import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchHandler, type SearchHandlerDeps } from '../../../../functions/search/handler';
import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import type { Principal } from '../../../../shared/domain/principal';
import { aSearchRequest } from '../../../support/builders';
import { httpEvent, lambdaTestContext } from '../../../support/http-events';

const viewer: Principal = { userId: 'u1', username: 'viewer', email: 'v@example.com', role: 'viewer', workspaceId: 'w1', jti: 'j1', tokenExpiresAt: new Date(Date.now() + 3_600_000) };

/** The handler over a real in-memory index; only the deps it reads are given. */
const store = new SqliteSearchIndex(':memory:');
const index = store.forWorkspace(viewer.workspaceId);
/** The searches counted in each workspace's usage. */
const searches: { workspaceId: string; counts: unknown }[] = [];
const handler = createSearchHandler({
  corsOrigins: '*',
  authenticate: async () => viewer,
  forWorkspace: (workspaceId: string) => ({
    searchIndex: store.forWorkspace(workspaceId),
    usageMeter: { count: async (counts: unknown) => void searches.push({ workspaceId, counts }) },
  }),
} as unknown as SearchHandlerDeps);
const auth = { authorization: 'Bearer token' };

const call = async (routeKey: string, options: Parameters<typeof httpEvent>[1]) => {
  const response = await handler(httpEvent(routeKey, { ...options, headers: { ...auth, ...options?.headers } }), lambdaTestContext);
  return { status: response.statusCode, body: JSON.parse(response.body as string) };
};

beforeAll(async () => {
  await index.upsert({
    id: 'd0c00000-0000-4000-8000-000000000001',
    version: 1,
    title: 'Invoice <b>March</b>',
    filename: 'invoice.pdf',
    content: 'Consulting invoice.',
    mime_type: 'application/pdf',
    status: 'completed',
    labels: [],
    metadata: {},
    ocr_confidence: 0.9,
    size: 100,
    created_at: '2024-03-01T00:00:00.000Z',
    updated_at: '2024-03-01T00:00:00.000Z',
  });
});

afterAll(() => store.close());

describe('GET /api/search', () => {
  it('answers a viewer with results, total and facets', async () => {
    // Arrange
    const query = { q: 'invoices' };

    // Act
    const { status, body } = await call('GET /api/search', { query });

    // Assert
    expect(status).toBe(200);
    expect(body).toMatchObject({
      results: [{ document_id: 'd0c00000-0000-4000-8000-000000000001', title: 'Invoice <b>March</b>' }],
      total: 1,
      facets: { mime_types: { 'application/pdf': 1 }, labels: {} },
    });
    expect(body.results[0].highlights[0]).toEqual({ field: 'title', snippet: '<mark>Invoice</mark> &lt;b&gt;March&lt;/b&gt;' });
  });

  it("counts a search that ran in the caller's workspace's usage, and not one refused", async () => {
    // Arrange
    searches.length = 0;

    // Act
    await call('GET /api/search', { query: { q: 'invoice' } });
    await call('GET /api/search', { query: { q: '' } });

    // Assert
    expect(searches).toEqual([{ workspaceId: viewer.workspaceId, counts: { search_requests: 1 } }]);
  });

  it.each([[{}], [{ q: '' }], [{ q: '   ' }]])('refuses a missing or empty q (%j)', async (query) => {
    // Arrange
    const event = { query };

    // Act
    const { status, body } = await call('GET /api/search', event);

    // Assert
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'q' } });
  });

  it('refuses filters that are not JSON, saying so', async () => {
    // Arrange
    const query = { q: 'invoice', filters: '{mime_types:' };

    // Act
    const { status, body } = await call('GET /api/search', { query });

    // Assert
    expect(status).toBe(400);
    expect(body.error.details).toMatchObject({ field: 'filters', reason: expect.stringMatching(/^is not valid JSON/) });
  });

  it('refuses an unknown filter by name', async () => {
    // Arrange
    const query = { q: 'invoice', filters: JSON.stringify({ colour: 'red' }) };

    // Act
    const { status, body } = await call('GET /api/search', { query });

    // Assert
    expect(status).toBe(400);
    expect(body.error.details).toMatchObject({ field: 'filters.colour', reason: 'is not a known field' });
  });

  it('refuses a NUL character in q with 400 naming q', async () => {
    // Arrange
    const query = { q: 'a\u0000b' };

    // Act
    const { status, body } = await call('GET /api/search', { query });

    // Assert
    expect(status).toBe(400);
    expect(body.error.details).toMatchObject({ field: 'q', reason: expect.stringMatching(/NUL/) });
  });

  it.each([
    ['a reserved key', '{"__proto__":{"labels":[]}}', 'filters.__proto__'],
    ['an unpaired surrogate', '{"mime_types":["\\ud800"]}', 'filters.mime_types.0'],
  ])('refuses filters holding %s, naming where', async (_, filters, field) => {
    // Arrange
    const query = { q: 'invoice', filters };

    // Act
    const { status, body } = await call('GET /api/search', { query });

    // Assert
    expect(status).toBe(400);
    expect(body.error.details).toMatchObject({ field });
  });

  it('refuses more than 100 per page', async () => {
    // Arrange
    const query = { q: 'invoice', per_page: '101' };

    // Act
    const { status, body } = await call('GET /api/search', { query });

    // Assert
    expect(status).toBe(400);
    expect(body.error.details).toMatchObject({ field: 'per_page' });
  });
});

describe('POST /api/search/advanced', () => {
  it('answers with the search result shape', async () => {
    // Arrange
    const body = { query: { must: [{ field: 'title', value: 'march', type: 'match' }] }, sort: [{ field: 'date', order: 'asc' }] };

    // Act
    const response = await call('POST /api/search/advanced', { body });

    // Assert
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(1);
  });

  it('refuses an unknown field, naming it', async () => {
    // Arrange
    const body = { query: { must: [{ field: 'author', value: 'x', type: 'match' }] } };

    // Act
    const response = await call('POST /api/search/advanced', { body });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ field: 'query.must.0.field', reason: expect.stringContaining('unknown field "author"') });
  });

  it('refuses an unknown type, naming it', async () => {
    // Arrange
    const body = { query: { should: [{ field: 'title', value: 'x', type: 'regex' }] } };

    // Act
    const response = await call('POST /api/search/advanced', { body });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ field: 'query.should.0.type', reason: expect.stringContaining('unknown type "regex"') });
  });

  it.each(['match', 'contains', 'exact'])('refuses a NUL character in a %s value, naming the clause', async (type) => {
    // Arrange
    const body = { query: { must: [{ field: 'title', value: 'inv\u0000oice', type }] } };

    // Act
    const response = await call('POST /api/search/advanced', { body });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ field: 'query.must.0.value', reason: expect.stringMatching(/NUL/) });
  });

  it('refuses a query with only must_not', async () => {
    // Arrange
    const body = { query: { must_not: [{ field: 'title', value: 'draft', type: 'match' }] } };

    // Act
    const response = await call('POST /api/search/advanced', { body });

    // Assert
    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ field: 'query' });
  });
});

describe('the SQLite index', () => {
  it('takes a NUL that reaches it in a contains value as a separator instead of failing', async () => {
    // Arrange
    const request = aSearchRequest({ query: { kind: 'contains', field: 'title', value: 'Invoice\u0000' } });

    // Act
    const result = await index.search(request);

    // Assert
    expect(result.total).toBe(1);
  });
});
