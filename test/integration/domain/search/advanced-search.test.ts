import { afterAll, describe, expect, it } from 'vitest';
import { advancedQuery, advancedSearch, type AdvancedSearchRequest, type SearchClause } from '../../../../shared/domain/search/advanced-search';
import { refusalOf } from '../workspace-stores';
import { anIndexedDocument, memoryIndex } from './search-setup';

const clause = (value: string, overrides: Partial<SearchClause> = {}): SearchClause => ({ field: 'all', value, type: 'match', ...overrides });

const aRequest = (overrides: Partial<AdvancedSearchRequest> = {}): AdvancedSearchRequest => ({
  must: [],
  should: [],
  mustNot: [],
  filters: {},
  sort: [],
  page: 1,
  perPage: 20,
  highlight: false,
  fuzzy: false,
  ...overrides,
});

/** The AppError `run` throws, as code and details. */
const thrown = (run: () => unknown) => refusalOf(Promise.resolve().then(run));

describe('advancedSearch', () => {
  const index = memoryIndex();

  afterAll(() => index.close());

  const indexed = async (...documents: ReturnType<typeof anIndexedDocument>[]) => {
    const searchIndex = index.forWorkspace(crypto.randomUUID());
    for (const document of documents) await searchIndex.upsert(document);
    return { searchIndex };
  };

  it('finds documents meeting every must, at least one should and no must_not', async () => {
    // Arrange
    const [paid, unpaid, letter, receipt] = [
      anIndexedDocument('Invoice for consulting, paid'),
      anIndexedDocument('Invoice for hosting, unpaid'),
      anIndexedDocument('Letter about consulting'),
      anIndexedDocument('Invoice for training'),
    ];
    const deps = await indexed(paid, unpaid, letter, receipt);

    // Act
    const results = await advancedSearch(deps, aRequest({ must: [clause('invoice')], should: [clause('consulting'), clause('hosting')], mustNot: [clause('unpaid')] }));

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([paid.id]);
  });

  it('finds a value inside words with contains', async () => {
    // Arrange
    const order = anIndexedDocument('Order ORD-88-123456');
    const deps = await indexed(order, anIndexedDocument('Order 99'));

    // Act
    const results = await advancedSearch(deps, aRequest({ must: [clause('3456', { type: 'contains' })] }));

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([order.id]);
  });

  it('compares a whole short field with exact, case-insensitively', async () => {
    // Arrange
    const [exact, longer] = [anIndexedDocument('x', { title: 'Tax return' }), anIndexedDocument('x', { title: 'Tax return 2024' })];
    const deps = await indexed(exact, longer);

    // Act
    const results = await advancedSearch(deps, aRequest({ must: [clause('TAX RETURN', { field: 'title', type: 'exact' })] }));

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([exact.id]);
  });

  it('sorts as asked', async () => {
    // Arrange
    const [small, large] = [anIndexedDocument('report', { size: 10 }), anIndexedDocument('report', { size: 20 })];
    const deps = await indexed(small, large);

    // Act
    const results = await advancedSearch(deps, aRequest({ must: [clause('report')], sort: [{ field: 'size', order: 'desc' }] }));

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([large.id, small.id]);
  });
});

describe('advancedQuery', () => {
  it('refuses a query without a must or a should, with 400 on query', async () => {
    // Act
    const refused = await thrown(() => advancedQuery({ must: [], should: [], mustNot: [clause('spam')] }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'query' } });
  });

  it('refuses a contains value shorter than three characters, naming the clause', async () => {
    // Act
    const refused = await thrown(() => advancedQuery({ must: [clause('invoice')], should: [clause('ab', { type: 'contains' })], mustNot: [] }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'query.should.0.value' } });
  });

  it('refuses exact on content, naming the clause type', async () => {
    // Act
    const refused = await thrown(() => advancedQuery({ must: [clause('x'), clause('whole text', { field: 'content', type: 'exact' })], should: [], mustNot: [] }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'query.must.1.type' } });
  });

  it('refuses a match value without words', async () => {
    // Act
    const refused = await thrown(() => advancedQuery({ must: [clause(' -- ')], should: [], mustNot: [] }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'query.must.0.value' } });
  });

  it('requires every word of a match, and any one of several shoulds', () => {
    // Act
    const node = advancedQuery({ must: [clause('tax return')], should: [clause('2023'), clause('2024')], mustNot: [] });

    // Assert
    expect(node).toEqual({
      kind: 'and',
      children: [
        { kind: 'and', children: [{ kind: 'term', field: 'all', value: 'tax' }, { kind: 'term', field: 'all', value: 'return' }] },
        { kind: 'or', children: [{ kind: 'term', field: 'all', value: '2023' }, { kind: 'term', field: 'all', value: '2024' }] },
      ],
    });
  });
});
