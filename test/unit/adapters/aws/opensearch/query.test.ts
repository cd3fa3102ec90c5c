import { describe, expect, it } from 'vitest';
import {
  ADOPT_SCRIPT,
  buildFilters,
  buildQuery,
  buildSearchBody,
  buildSort,
  createIndexBody,
  entryIdOf,
  indexNameOf,
  parseSearchResponse,
  tombstoneSource,
  toSource,
} from '../../../../../shared/adapters/aws/opensearch/query';
import type { IndexedDocument, QueryNode } from '../../../../../shared/domain/search/ports';
import { MARK_CLOSE, MARK_OPEN } from '../../../../../shared/domain/search/text';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../../shared/domain/workspaces/workspace';
import { aSearchRequest } from '../../../../support/builders';

const WORKSPACE = '3a3a0000-0000-4000-8000-000000000001';
const ALL_TEXT = ['title^10', 'filename^5', 'content^1', 'label_names^3', 'metadata_values^2'];

describe('OpenSearch query DSL', () => {
  it('matches a word on every text field, weighted, all of its tokens required', () => {
    // Arrange
    const node = { kind: 'term', field: 'all', value: 'invoices' } as const;

    // Act
    const dsl = buildQuery(node, false);

    // Assert
    expect(dsl).toEqual({ multi_match: { query: 'invoices', type: 'most_fields', fields: ALL_TEXT, operator: 'and' } });
  });

  it('adds AUTO:4,8 fuzziness with transpositions when fuzzy is on', () => {
    // Arrange
    const node = { kind: 'term', field: 'content', value: 'recieve' } as const;

    // Act
    const dsl = buildQuery(node, true);

    // Assert
    expect(dsl).toEqual({
      multi_match: {
        query: 'recieve',
        type: 'most_fields',
        fields: ['content^1'],
        operator: 'and',
        fuzziness: 'AUTO:4,8',
        fuzzy_transpositions: true,
        prefix_length: 0,
        max_expansions: 20,
      },
    });
  });

  it('matches a prefix on the edge n-gram sub-fields', () => {
    // Arrange
    const node = { kind: 'term', field: 'title', value: 'consult', prefix: true } as const;

    // Act
    const dsl = buildQuery(node, true);

    // Assert
    expect(dsl).toEqual({ multi_match: { query: 'consult', type: 'most_fields', fields: ['title.prefix^10'], operator: 'and' } });
  });

  it('matches a phrase on the stemmed fields', () => {
    // Arrange
    const node = { kind: 'phrase', field: 'all', value: 'annual report' } as const;

    // Act
    const dsl = buildQuery(node, false);

    // Assert
    expect(dsl).toEqual({ multi_match: { query: 'annual report', type: 'phrase', fields: ALL_TEXT } });
  });

  it('matches contains as a phrase of trigrams', () => {
    // Arrange
    const node = { kind: 'contains', field: 'all', value: '4711' } as const;

    // Act
    const dsl = buildQuery(node, false);

    // Assert
    expect(dsl).toEqual({
      multi_match: { query: '4711', type: 'phrase', fields: ALL_TEXT.map((field) => field.replace('^', '.trigram^')) },
    });
  });

  it('compares exact values on the lower-cased keyword sub-fields', () => {
    // Arrange
    const node = { kind: 'exact', field: 'labels', value: 'Drafts' } as const;

    // Act
    const dsl = buildQuery(node, false);

    // Assert
    expect(dsl).toEqual({ bool: { should: [{ term: { 'label_names.exact': { value: 'drafts' } } }], minimum_should_match: 1 } });
  });

  it('turns AND with NOT into must and must_not', () => {
    // Arrange
    const node: QueryNode = {
      kind: 'and',
      children: [
        { kind: 'term', field: 'title', value: 'invoice' },
        { kind: 'not', child: { kind: 'term', field: 'title', value: 'draft' } },
      ],
    };

    // Act
    const dsl = buildQuery(node, false);

    // Assert
    expect(dsl).toEqual({
      bool: {
        must: [{ multi_match: { query: 'invoice', type: 'most_fields', fields: ['title^10'], operator: 'and' } }],
        must_not: [{ multi_match: { query: 'draft', type: 'most_fields', fields: ['title^10'], operator: 'and' } }],
      },
    });
  });

  it('turns OR into should with one required', () => {
    // Arrange
    const node: QueryNode = {
      kind: 'or',
      children: [
        { kind: 'term', field: 'filename', value: 'a' },
        { kind: 'term', field: 'filename', value: 'b' },
      ],
    };

    // Act
    const dsl = buildQuery(node, false);

    // Assert
    expect(dsl).toEqual({
      bool: {
        should: [
          { multi_match: { query: 'a', type: 'most_fields', fields: ['filename^5'], operator: 'and' } },
          { multi_match: { query: 'b', type: 'most_fields', fields: ['filename^5'], operator: 'and' } },
        ],
        minimum_should_match: 1,
      },
    });
  });

  it("filters on the workspace first, then out tombstones, then applies every filter", () => {
    // Arrange
    const filters = {
      mimeTypes: ['application/pdf'],
      labels: ['l1'],
      status: ['completed'],
      dateFrom: '2024-01-01T00:00:00.000Z',
      dateTo: '2024-12-31T23:59:59.999Z',
      minConfidence: 0.9,
    };

    // Act
    const dsl = buildFilters(WORKSPACE, filters);

    // Assert
    expect(dsl).toEqual([
      { term: { workspace_id: WORKSPACE } },
      { term: { deleted: false } },
      { terms: { mime_type: ['application/pdf'] } },
      { terms: { labels: ['l1'] } },
      { terms: { status: ['completed'] } },
      { range: { created_at: { gte: '2024-01-01T00:00:00.000Z', lte: '2024-12-31T23:59:59.999Z' } } },
      { range: { ocr_confidence: { gte: 0.9 } } },
    ]);
  });

  it('sorts by the asked keys, then by id', () => {
    // Arrange
    const sort = [
      { field: 'created_at', order: 'asc' },
      { field: 'title', order: 'desc' },
    ] as const;

    // Act
    const dsl = buildSort([...sort]);

    // Assert
    expect(dsl).toEqual([{ created_at: { order: 'asc' } }, { 'title.exact': { order: 'desc' } }, { id: { order: 'asc' } }]);
  });

  it('asks for one page, the true total, facets and marked highlights', () => {
    // Arrange
    const search = aSearchRequest({ page: 3, perPage: 10 });

    // Act
    const body = buildSearchBody(WORKSPACE, search);

    // Assert
    expect(body).toMatchObject({
      from: 20,
      size: 10,
      track_total_hits: true,
      aggs: { mime_types: { terms: { field: 'mime_type', size: 100 } }, labels: { terms: { field: 'labels', size: 1000 } } },
      highlight: { pre_tags: [MARK_OPEN], post_tags: [MARK_CLOSE], encoder: 'default' },
    });
  });

  it('leaves highlights out when they are turned off', () => {
    // Arrange
    const search = aSearchRequest({ highlight: false });

    // Act
    const body = buildSearchBody(WORKSPACE, search);

    // Assert
    expect(body).not.toHaveProperty('highlight');
  });

  it('filters hits, total and facets by the workspace even with no filter asked', () => {
    // Arrange
    const search = aSearchRequest({ filters: {} });

    // Act
    const body = buildSearchBody(WORKSPACE, search) as { query: { bool: { filter: unknown[] } }; aggs: unknown; post_filter?: unknown };

    // Assert: the aggregations run over the query, whose filter holds the workspace (no post_filter to escape it)
    expect(body.query.bool.filter).toContainEqual({ term: { workspace_id: WORKSPACE } });
    expect(body).not.toHaveProperty('post_filter');
    expect(body).toMatchObject({ track_total_hits: true, _source: ['id', 'title'] });
  });

  it("reads a hit's document id from its source, not from the entry's _id", () => {
    // Arrange
    const body = { hits: { total: { value: 1 }, hits: [{ _id: entryIdOf(WORKSPACE, 'd1'), _score: 1, _source: { id: 'd1', title: 'T' } }] } };

    // Act
    const results = parseSearchResponse(body);

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual(['d1']);
  });

  it("keys an entry by its workspace and its document: another workspace's id is another entry", () => {
    // Arrange
    const documentId = 'd1';

    // Act
    const mine = entryIdOf(WORKSPACE, documentId);
    const theirs = entryIdOf('w-other', documentId);

    // Assert
    expect(mine).toBe(`${WORKSPACE}:d1`);
    expect(mine).not.toBe(theirs);
  });

  it('stamps the workspace on entries and tombstones', () => {
    // Arrange
    const tombstone = tombstoneSource(WORKSPACE, 'd1');

    // Act
    const mapping = createIndexBody('documents').mappings.properties;

    // Assert
    expect(mapping.workspace_id).toEqual({ type: 'keyword' });
    expect(tombstone).toEqual({ id: 'd1', workspace_id: WORKSPACE, deleted: true });
  });

  it('adopts entries from before workspaces into the bootstrap workspace when copying an older index', () => {
    // Arrange
    const { source, params } = ADOPT_SCRIPT;

    // Act
    const keyed = source.includes("ctx._id = ctx._source.workspace_id + ':' + ctx._source.id");

    // Assert
    expect(params).toEqual({ bootstrap: BOOTSTRAP_WORKSPACE_ID });
    expect(source).toContain('if (ctx._source.workspace_id == null) { ctx._source.workspace_id = params.bootstrap; }');
    expect(keyed).toBe(true);
  });

  it("routes every copy of a migration by its entry's workspace, adopted or not", () => {
    // Arrange: the script's statements mean the same in JavaScript as in Painless, so it runs here as written.
    const run = new Function('ctx', 'params', ADOPT_SCRIPT.source) as (ctx: unknown, params: unknown) => void;
    const adopted = { _id: 'd1', _routing: null, _source: { id: 'd1' } as { id: string; workspace_id?: string } };
    const kept = { _id: 'w2:d2', _routing: null, _source: { id: 'd2', workspace_id: 'w2' } };

    // Act
    run(adopted, ADOPT_SCRIPT.params);
    run(kept, ADOPT_SCRIPT.params);

    // Assert
    expect(adopted).toEqual({ _id: `${BOOTSTRAP_WORKSPACE_ID}:d1`, _routing: BOOTSTRAP_WORKSPACE_ID, _source: { id: 'd1', workspace_id: BOOTSTRAP_WORKSPACE_ID } });
    expect(kept).toEqual({ _id: 'w2:d2', _routing: 'w2', _source: { id: 'd2', workspace_id: 'w2' } });
  });

  it('reads hits, total, facets and escaped highlights from a response', () => {
    // Arrange
    const body = {
      hits: {
        total: { value: 1234 },
        hits: [
          {
            _id: 'd1',
            _score: 2.5,
            _source: { title: 'Notes' },
            highlight: { content: [`run ${MARK_OPEN}figures${MARK_CLOSE} <script>`], 'title.trigram': [`N${MARK_OPEN}ot${MARK_CLOSE}${MARK_OPEN}es${MARK_CLOSE}`] },
          },
        ],
      },
      aggregations: {
        mime_types: { buckets: [{ key: 'text/plain', doc_count: 1200 }] },
        labels: { buckets: [{ key: 'l1', doc_count: 3 }] },
      },
    };

    // Act
    const results = parseSearchResponse(body);

    // Assert
    expect(results).toEqual({
      results: [
        {
          document_id: 'd1',
          title: 'Notes',
          score: 2.5,
          highlights: [
            { field: 'title', snippet: 'N<mark>otes</mark>' },
            { field: 'content', snippet: 'run <mark>figures</mark> &lt;script&gt;' },
          ],
        },
      ],
      total: 1234,
      facets: { mime_types: { 'text/plain': 1200 }, labels: { l1: 3 } },
    });
  });

  it('creates a versioned index with the alias, strict mapping and the four analysers', () => {
    // Arrange
    const alias = 'documents';

    // Act
    const body = createIndexBody(alias);

    // Assert
    expect(indexNameOf(alias)).toBe('documents-v3');
    expect(body.aliases).toEqual({ documents: {} });
    expect(body.mappings.dynamic).toBe('strict');
    expect(Object.keys(body.settings.analysis.analyzer)).toEqual(['text', 'prefix_index', 'prefix_search', 'trigram']);
    expect(body.mappings.properties.content.fields).toHaveProperty('trigram');
    expect(body.mappings.properties.content.fields).toHaveProperty('prefix');
  });

  it('stores label names and metadata values as text without highlight markers', () => {
    // Arrange
    const document: IndexedDocument = {
      id: 'd1',
      version: 2,
      title: `A ${MARK_OPEN}title`,
      filename: 'a.pdf',
      content: 'text',
      mime_type: 'application/pdf',
      status: 'completed',
      labels: [{ id: 'l1', name: 'Finance' }],
      metadata: { vendor: 'Acme', pages: 2, draft: null },
      ocr_confidence: 0.9,
      size: 10,
      created_at: '2024-01-01T00:00:00.000Z',
      updated_at: '2024-01-01T00:00:00.000Z',
    };

    // Act
    const source = toSource(WORKSPACE, document);

    // Assert
    expect(source).toMatchObject({ workspace_id: WORKSPACE, title: 'A title', label_names: ['Finance'], labels: ['l1'], metadata_values: ['Acme', '2'], deleted: false });
  });
});
