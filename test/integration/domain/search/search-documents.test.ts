import { afterAll, describe, expect, it } from 'vitest';
import { MAX_REACHABLE_RESULTS } from '../../../../shared/domain/search/ports';
import { searchDocuments, widenCodes, type SearchBoxRequest } from '../../../../shared/domain/search/search-documents';
import { refusalOf } from '../workspace-stores';
import { anIndexedDocument, memoryIndex } from './search-setup';

const aQuery = (q: string, overrides: Partial<SearchBoxRequest> = {}): SearchBoxRequest => ({ q, page: 1, perPage: 20, filters: {}, highlight: false, fuzzy: false, ...overrides });

describe('searchDocuments', () => {
  const index = memoryIndex();

  afterAll(() => index.close());

  /** A fresh workspace's view of the index holding `documents`. */
  const indexed = async (...documents: ReturnType<typeof anIndexedDocument>[]) => {
    const searchIndex = index.forWorkspace(crypto.randomUUID());
    for (const document of documents) await searchIndex.upsert(document);
    return { searchIndex };
  };

  it('finds documents by the stems of the words asked for, with the true total', async () => {
    // Arrange
    const [invoices, letter] = [anIndexedDocument('Two invoices are overdue'), anIndexedDocument('A letter from the bank')];
    const deps = await indexed(invoices, letter);

    // Act
    const results = await searchDocuments(deps, aQuery('invoice'));

    // Assert
    expect({ ids: results.results.map((hit) => hit.document_id), total: results.total }).toEqual({ ids: [invoices.id], total: 1 });
  });

  it('finds a number inside a longer code', async () => {
    // Arrange
    const invoice = anIndexedDocument('Invoice INV-2024-004711 of March');
    const deps = await indexed(invoice, anIndexedDocument('Order 12'));

    // Act
    const results = await searchDocuments(deps, aQuery('4711'));

    // Assert
    expect(results.results.map((hit) => hit.document_id)).toEqual([invoice.id]);
  });

  it('wraps the matches of its highlights in <mark>, escaping the text', async () => {
    // Arrange
    const deps = await indexed(anIndexedDocument('<b>Contract</b> signed'));

    // Act
    const results = await searchDocuments(deps, aQuery('contract', { highlight: true }));

    // Assert
    expect(results.results[0]?.highlights.map((highlight) => highlight.snippet).join(' ')).toContain('&lt;b&gt;<mark>Contract</mark>&lt;/b&gt;');
  });

  it('refuses a query that only excludes, with 400 on q', async () => {
    // Arrange
    const deps = await indexed();

    // Act
    const refused = await refusalOf(searchDocuments(deps, aQuery('-invoice')));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'q' } });
  });

  it(`refuses a page beyond the first ${MAX_REACHABLE_RESULTS} results with 400 on page`, async () => {
    // Arrange
    const deps = await indexed();

    // Act
    const refused = await refusalOf(searchDocuments(deps, aQuery('invoice', { page: MAX_REACHABLE_RESULTS / 20 + 1 })));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'page' } });
  });

  it("finds none of another workspace's documents", async () => {
    // Arrange
    await indexed(anIndexedDocument('A confidential invoice'));
    const mine = await indexed();

    // Act
    const results = await searchDocuments(mine, aQuery('confidential'));

    // Assert
    expect({ hits: results.results, total: results.total }).toEqual({ hits: [], total: 0 });
  });
});

describe('widenCodes', () => {
  it('lets a word with a digit match inside a longer code as well as by stem', () => {
    // Act
    const node = widenCodes({ kind: 'term', field: 'all', value: 'inv42' });

    // Assert
    expect(node).toEqual({ kind: 'or', children: [{ kind: 'term', field: 'all', value: 'inv42' }, { kind: 'contains', field: 'all', value: 'inv42' }] });
  });

  it('leaves words without digits, prefixes and codes too short for a substring as they are', () => {
    // Arrange
    const nodes = [
      { kind: 'term', field: 'all', value: 'invoice' },
      { kind: 'term', field: 'all', value: '2024', prefix: true },
      { kind: 'term', field: 'all', value: '42' },
    ] as const;

    // Act
    const widened = nodes.map((node) => widenCodes(node));

    // Assert
    expect(widened).toEqual(nodes);
  });

  it('widens the codes inside and, or and not', () => {
    // Act
    const node = widenCodes({ kind: 'and', children: [{ kind: 'term', field: 'all', value: 'invoice' }, { kind: 'not', child: { kind: 'term', field: 'title', value: '4711' } }] });

    // Assert
    expect(node).toEqual({
      kind: 'and',
      children: [
        { kind: 'term', field: 'all', value: 'invoice' },
        { kind: 'not', child: { kind: 'or', children: [{ kind: 'term', field: 'title', value: '4711' }, { kind: 'contains', field: 'title', value: '4711' }] } },
      ],
    });
  });
});
