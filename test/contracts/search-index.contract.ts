import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/domain/errors';
import type { IndexedDocument, SearchFilters, SearchIndex, SearchIndexStore, SearchResults } from '../../shared/domain/search/ports';
import { advancedSearch, type AdvancedSearchRequest, type SearchClause } from '../../shared/domain/search/advanced-search';
import { searchDocuments } from '../../shared/domain/search/search-documents';
import { listingCases } from './search-index-listing.cases';

/** An index under test, with a way to make its last writes visible (OpenSearch refreshes; SQLite needs nothing). */
export interface SearchIndexUnderTest {
  store: SearchIndexStore;
  refresh(): Promise<void>;
  dispose(): Promise<void>;
}

/** The workspace of the corpus, and one beside it whose entries share its words, a label id and a MIME type. */
export const CONTRACT_WORKSPACE = '3a3a0000-0000-4000-8000-00000000000a';
export const OTHER_WORKSPACE = '3a3a0000-0000-4000-8000-00000000000b';
/** A workspace with no entries at all. */
const EMPTY_WORKSPACE = '3a3a0000-0000-4000-8000-00000000000c';

const FINANCE = '0b0b0000-0000-4000-8000-000000000001';
const OTHER_LABEL = '0b0b0000-0000-4000-8000-000000000004';
const DRAFTS = '0b0b0000-0000-4000-8000-000000000002';
const REPORTS = '0b0b0000-0000-4000-8000-000000000003';

const id = (n: number) => `d0c00000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const CONTRACT_IDS = {
  invoice: id(1),
  receipt: id(2),
  contract: id(3),
  annualReport: id(4),
  notes: id(5),
  draftInvoice: id(6),
  deleted: id(7),
  budget: id(8),
} as const;

const base = {
  version: 1,
  filename: 'file.pdf',
  content: '',
  mime_type: 'application/pdf',
  status: 'completed',
  labels: [],
  metadata: {},
  ocr_confidence: 0.9,
  size: 1000,
} satisfies Partial<IndexedDocument>;

const at = (date: string) => ({ created_at: `${date}T09:00:00.000Z`, updated_at: `${date}T09:00:00.000Z` });

/** The fixed corpus: each document exists for one or two of the cases below. */
export const CONTRACT_CORPUS: IndexedDocument[] = [
  {
    ...base,
    id: CONTRACT_IDS.invoice,
    title: 'Invoice INV-2024-004711',
    filename: 'inv-2024-004711.pdf',
    content: 'This invoice covers consulting services for March. Payment is due within 30 days. Total amount 1,250.00 EUR.',
    labels: [{ id: FINANCE, name: 'Finance' }],
    metadata: { vendor: 'Acme Corp', pages: 2 },
    ocr_confidence: 0.95,
    ...at('2024-03-05'),
  },
  {
    ...base,
    id: CONTRACT_IDS.receipt,
    title: 'Delivery receipt',
    filename: 'scan-0042.png',
    content: 'Please confirm that you receive the parcel. The courier collects the signature on delivery.',
    mime_type: 'image/png',
    ocr_confidence: 0.62,
    ...at('2024-01-10'),
  },
  {
    ...base,
    id: CONTRACT_IDS.contract,
    title: 'Service contract',
    filename: 'contract.pdf',
    content: 'The annual report is attached to this contract. The contract renews every year unless cancelled.',
    ocr_confidence: 0.88,
    ...at('2023-11-15'),
  },
  {
    ...base,
    id: CONTRACT_IDS.annualReport,
    title: 'Annual report 2023',
    filename: 'annual-report-2023.pdf',
    content: 'Revenue grew in every quarter. The report lists all invoices of the year.',
    labels: [
      { id: FINANCE, name: 'Finance' },
      { id: REPORTS, name: 'Reports' },
    ],
    ocr_confidence: 0.99,
    ...at('2024-02-01'),
  },
  {
    ...base,
    id: CONTRACT_IDS.notes,
    title: 'Meeting notes',
    filename: 'notes.txt',
    content: 'We need to report annual figures <script>alert("x")</script> & more before Friday, for the thesis.',
    mime_type: 'text/plain',
    labels: [{ id: DRAFTS, name: 'Drafts' }],
    ocr_confidence: null,
    ...at('2023-12-20'),
  },
  {
    ...base,
    id: CONTRACT_IDS.draftInvoice,
    title: 'Draft invoice for Globex',
    filename: 'globex.pdf',
    content: 'Invoice draft, not sent yet.',
    status: 'processing',
    labels: [{ id: DRAFTS, name: 'Drafts' }],
    ocr_confidence: 0.8,
    ...at('2024-04-01'),
  },
  {
    ...base,
    id: CONTRACT_IDS.deleted,
    title: 'Invoice that was deleted',
    content: 'Shredded invoice.',
    ...at('2024-03-10'),
  },
];

/** More than the reachable 1000, all matching "padding", and nothing else of the cases above. */
export const FILLER_COUNT = 1010;
const filler = (n: number): IndexedDocument => ({
  ...base,
  id: `f1110000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  title: `Padding memo ${n}`,
  filename: `padding-${n}.txt`,
  content: `Padding text number ${n} for paging.`,
  mime_type: 'text/plain',
  ...at(`2022-01-${String((n % 28) + 1).padStart(2, '0')}`),
});

/** The other workspace's entries: each would show in the corpus workspace's cases below if scopes leaked. */
const otherId = (n: number) => `0e0e0000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const OTHER_CORPUS: IndexedDocument[] = [
  {
    ...base,
    id: otherId(1),
    title: 'Invoice from Initech',
    content: 'Invoice for printing the annual report. Padding, figures, parcel, consulting.',
    mime_type: 'image/jpeg',
    labels: [
      { id: FINANCE, name: 'Finance' },
      { id: OTHER_LABEL, name: 'Vendors' },
    ],
    metadata: { vendor: 'Acme Corp' },
    ...at('2024-03-06'),
  },
  {
    ...base,
    id: otherId(2),
    title: 'Invoice reminder',
    content: 'Second invoice reminder, shredded quarterly budget.',
    mime_type: 'application/pdf',
    labels: [{ id: OTHER_LABEL, name: 'Vendors' }],
    ...at('2024-03-07'),
  },
];

const ids = (results: SearchResults) => results.results.map((hit) => hit.document_id);
const sorted = (values: string[]) => [...values].sort();

/**
 * The behaviour every SearchIndex adapter shares, driven through the search use cases on a fixed corpus: the
 * same queries must give the same hits, order (where the case fixes one) and highlights.
 */
export function describeSearchIndexContract(name: string, make: () => Promise<SearchIndexUnderTest>): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let subject: SearchIndexUnderTest;
    let deps: { searchIndex: SearchIndex };
    /** The corpus workspace's view, and the other workspace's. */
    let index: SearchIndex;
    let other: SearchIndex;

    type SearchOptions = { fuzzy?: boolean; filters?: SearchFilters; page?: number; perPage?: number; highlight?: boolean };
    const searchIn = (view: SearchIndex, q: string, options: SearchOptions = {}) =>
      searchDocuments({ searchIndex: view }, {
        q,
        page: options.page ?? 1,
        perPage: options.perPage ?? 20,
        filters: options.filters ?? {},
        highlight: options.highlight ?? true,
        fuzzy: options.fuzzy ?? false,
      });
    const search = (q: string, options: SearchOptions = {}) => searchIn(deps.searchIndex, q, options);

    const advanced = (query: { must?: SearchClause[]; should?: SearchClause[]; mustNot?: SearchClause[] }, rest: Partial<AdvancedSearchRequest> = {}) =>
      advancedSearch(deps, {
        must: query.must ?? [],
        should: query.should ?? [],
        mustNot: query.mustNot ?? [],
        filters: {},
        sort: [],
        page: 1,
        perPage: 20,
        highlight: true,
        fuzzy: false,
        ...rest,
      });

    beforeAll(async () => {
      subject = await make();
      index = subject.store.forWorkspace(CONTRACT_WORKSPACE);
      other = subject.store.forWorkspace(OTHER_WORKSPACE);
      deps = { searchIndex: index };
      await subject.store.clear();
      for (const document of CONTRACT_CORPUS) await index.upsert(document);
      for (let n = 1; n <= FILLER_COUNT; n++) await index.upsert(filler(n));
      await index.remove(CONTRACT_IDS.deleted, 1);
      // A stale write arrives after its deletion, and an older version after a newer one: neither may win.
      await index.upsert(CONTRACT_CORPUS.find((document) => document.id === CONTRACT_IDS.deleted)!);
      await index.upsert({ ...base, id: CONTRACT_IDS.budget, version: 3, title: 'Quarterly budget', content: 'Budget for the next quarter.', ...at('2024-05-01') });
      await index.upsert({ ...base, id: CONTRACT_IDS.budget, version: 2, title: 'Obsolete budget', content: 'Budget draft.', ...at('2024-05-01') });
      // Every case of the corpus workspace runs with these beside it: none of them may show there.
      for (const document of OTHER_CORPUS) await other.upsert(document);
      await subject.refresh();
    }, 600_000);

    afterAll(async () => {
      await subject?.dispose();
    });

    listingCases(
      () => subject.store,
      () => ({
        workspaceId: CONTRACT_WORKSPACE,
        otherWorkspaceId: OTHER_WORKSPACE,
        live: [
          ...CONTRACT_CORPUS.filter((document) => document.id !== CONTRACT_IDS.deleted),
          ...Array.from({ length: FILLER_COUNT }, (_, n) => filler(n + 1)),
          { id: CONTRACT_IDS.budget, version: 3 },
        ].map((document) => ({ id: document.id, version: document.version })),
        removedId: CONTRACT_IDS.deleted,
        otherIds: OTHER_CORPUS.map((document) => document.id),
      }),
    );

    it('answers a ping', async () => {
      // Arrange
      const { store } = subject;

      // Act
      const ping = store.ping();

      // Assert
      await expect(ping).resolves.toBeUndefined();
    });

    it('finds a word by its stem: "invoices" finds "invoice"', async () => {
      // Arrange
      const query = 'invoices';

      // Act
      const results = await search(query);

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.invoice, CONTRACT_IDS.annualReport, CONTRACT_IDS.draftInvoice]));
    });

    it('ranks a document with the word only in its content below those with it in the title', async () => {
      // Arrange
      const query = 'invoice';

      // Act
      const results = await search(query);

      // Assert
      expect(ids(results).at(-1)).toBe(CONTRACT_IDS.annualReport);
      expect(results.results.map((hit) => hit.score)).toEqual([...results.results.map((hit) => hit.score)].sort((a, b) => b - a));
    });

    it('does not correct a typo when fuzzy is off', async () => {
      // Arrange
      const query = 'recieve';

      // Act
      const results = await search(query, { fuzzy: false });

      // Assert
      expect(results.total).toBe(0);
    });

    it('corrects a typo when fuzzy is on: "recieve" finds "receive"', async () => {
      // Arrange
      const query = 'recieve';

      // Act
      const results = await search(query, { fuzzy: true });

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.receipt]);
    });

    it('finds a fragment of an invoice number: "4711" finds "INV-2024-004711"', async () => {
      // Arrange
      const query = '4711';

      // Act
      const results = await search(query);

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.invoice]);
    });

    it('finds a substring with a contains condition', async () => {
      // Arrange
      const clause: SearchClause = { field: 'title', value: '-004711', type: 'contains' };

      // Act
      const results = await advanced({ must: [clause] });

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.invoice]);
    });

    it('marks a contains match in the snippet', async () => {
      // Arrange
      const clause: SearchClause = { field: 'title', value: '4711', type: 'contains' };

      // Act
      const results = await advanced({ must: [clause] });

      // Assert
      expect(results.results[0]!.highlights).toContainEqual({ field: 'title', snippet: 'Invoice INV-2024-00<mark>4711</mark>' });
    });

    it('finds words starting with a prefix', async () => {
      // Arrange
      const query = 'consult*';

      // Act
      const results = await search(query);

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.invoice]);
    });

    it('finds words that start with the typed prefix, not with its stem: "thes*" finds "thesis" and not "the"', async () => {
      // Arrange: "the" is in most documents; "thesis" only in the notes.
      const query = 'thes*';

      // Act
      const results = await search(query);

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.notes]);
    });

    it('finds a word whose stem is shorter than the prefix: "consulti*" finds "consulting"', async () => {
      // Act
      const results = await search('consulti*');

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.invoice]);
    });

    it('matches a quoted phrase only with its words in order', async () => {
      // Arrange
      const query = '"annual report"';

      // Act
      const results = await search(query);

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.contract, CONTRACT_IDS.annualReport]));
    });

    it('matches the same words without quotes in any order', async () => {
      // Arrange
      const query = 'annual report';

      // Act
      const results = await search(query);

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.contract, CONTRACT_IDS.annualReport, CONTRACT_IDS.notes]));
    });

    it('finds either word with OR', async () => {
      // Arrange
      const query = 'parcel OR globex';

      // Act
      const results = await search(query);

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.receipt, CONTRACT_IDS.draftInvoice]));
    });

    it('leaves out documents with an excluded word (-word)', async () => {
      // Arrange
      const query = 'invoice -draft';

      // Act
      const results = await search(query);

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.invoice, CONTRACT_IDS.annualReport]));
    });

    it('leaves out documents matching must_not', async () => {
      // Arrange
      const must: SearchClause[] = [{ field: 'all', value: 'invoice', type: 'match' }];
      const mustNot: SearchClause[] = [{ field: 'labels', value: 'drafts', type: 'exact' }];

      // Act
      const results = await advanced({ must, mustNot });

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.invoice, CONTRACT_IDS.annualReport]));
    });

    it('requires one of the should conditions when there is no must', async () => {
      // Arrange
      const should: SearchClause[] = [
        { field: 'content', value: 'parcel', type: 'match' },
        { field: 'title', value: 'service contract', type: 'exact' },
      ];

      // Act
      const results = await advanced({ should });

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.receipt, CONTRACT_IDS.contract]));
    });

    it('limits a word to one field with field:word', async () => {
      // Arrange
      const query = 'labels:finance';

      // Act
      const results = await search(query);

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.invoice, CONTRACT_IDS.annualReport]));
    });

    it('searches metadata values as text', async () => {
      // Arrange
      const query = 'acme';

      // Act
      const results = await search(query);

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.invoice]);
    });

    it('counts facets over the whole match set, not the page', async () => {
      // Arrange
      const query = 'invoice';

      // Act
      const results = await search(query, { perPage: 1 });

      // Assert
      expect(results.results).toHaveLength(1);
      expect(results.total).toBe(3);
      expect(results.facets).toEqual({ mime_types: { 'application/pdf': 3 }, labels: { [FINANCE]: 2, [REPORTS]: 1, [DRAFTS]: 1 } });
    });

    it('filters by creation date, bounds included', async () => {
      // Arrange
      const filters: SearchFilters = { dateFrom: '2024-03-05T09:00:00.000Z', dateTo: '2024-12-31T23:59:59.999Z' };

      // Act
      const results = await search('invoice', { filters });

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.invoice, CONTRACT_IDS.draftInvoice]));
    });

    it('filters by minimum OCR confidence', async () => {
      // Arrange
      const filters: SearchFilters = { minConfidence: 0.9 };

      // Act
      const results = await search('invoice', { filters });

      // Assert
      expect(sorted(ids(results))).toEqual(sorted([CONTRACT_IDS.invoice, CONTRACT_IDS.annualReport]));
    });

    it('filters by MIME type, label and status', async () => {
      // Arrange
      const filters: SearchFilters = { mimeTypes: ['application/pdf'], labels: [DRAFTS], status: ['processing'] };

      // Act
      const results = await search('invoice', { filters });

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.draftInvoice]);
    });

    it('sorts by date when asked', async () => {
      // Arrange
      const must: SearchClause[] = [{ field: 'all', value: 'invoice', type: 'match' }];

      // Act
      const results = await advanced({ must }, { sort: [{ field: 'created_at', order: 'asc' }] });

      // Assert
      expect(ids(results)).toEqual([CONTRACT_IDS.annualReport, CONTRACT_IDS.invoice, CONTRACT_IDS.draftInvoice]);
    });

    it('highlights matches in the title with mark tags', async () => {
      // Arrange
      const query = 'invoices';

      // Act
      const results = await search(query);

      // Assert
      const hit = results.results.find((result) => result.document_id === CONTRACT_IDS.invoice)!;
      expect(hit.highlights).toContainEqual({ field: 'title', snippet: '<mark>Invoice</mark> INV-2024-004711' });
    });

    it('escapes the document text around the marks in snippets', async () => {
      // Arrange
      const query = 'figures';

      // Act
      const results = await search(query);

      // Assert
      const content = results.results[0]!.highlights.find((highlight) => highlight.field === 'content')!.snippet;
      expect(content).toContain('<mark>figures</mark>');
      expect(content).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
      expect(content).not.toContain('<script>');
    });

    it('returns no highlights when they are turned off', async () => {
      // Arrange
      const query = 'invoice';

      // Act
      const results = await search(query, { highlight: false });

      // Assert
      expect(results.results.every((hit) => hit.highlights.length === 0)).toBe(true);
    });

    it('pages through the results without overlap', async () => {
      // Arrange
      const query = 'invoice';

      // Act
      const first = await search(query, { perPage: 2, page: 1 });
      const second = await search(query, { perPage: 2, page: 2 });

      // Assert
      expect(first.results).toHaveLength(2);
      expect(second.results).toHaveLength(1);
      expect(new Set([...ids(first), ...ids(second)]).size).toBe(3);
      expect(second.total).toBe(3);
    });

    it('orders equally scored documents by id, page after page', async () => {
      // Arrange: every filler scores the same for "padding"
      const fillerIds = sorted(Array.from({ length: FILLER_COUNT }, (_, i) => filler(i + 1).id));

      // Act
      const first = await search('padding', { perPage: 20, page: 1 });
      const third = await search('padding', { perPage: 20, page: 3 });

      // Assert
      expect(ids(first)).toEqual(fillerIds.slice(0, 20));
      expect(ids(third)).toEqual(fillerIds.slice(40, 60));
    });

    it('reports the true total beyond the 1000 reachable results', async () => {
      // Arrange
      const query = 'padding';

      // Act
      const results = await search(query, { perPage: 100, page: 10 });

      // Assert
      expect(results.total).toBe(FILLER_COUNT);
      expect(results.results).toHaveLength(100);
    });

    it('cuts a page that straddles the 1000th result at it', async () => {
      // Arrange
      const query = 'padding';

      // Act
      const results = await search(query, { perPage: 30, page: 34 });

      // Assert
      expect(results.results).toHaveLength(10);
    });

    it('refuses a page that starts beyond the 1000th result', async () => {
      // Arrange
      const query = 'padding';

      // Act
      const attempt = search(query, { perPage: 100, page: 11 });

      // Assert
      await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'page' } });
      await expect(attempt).rejects.toBeInstanceOf(AppError);
    });

    it('never returns a removed document, even after a stale upsert of it', async () => {
      // Arrange
      const query = 'shredded';

      // Act
      const results = await search(query);

      // Assert
      expect(results.total).toBe(0);
    });

    it('keeps the newest version when an older one arrives late', async () => {
      // Arrange
      const newer = 'quarterly';
      const older = 'obsolete';

      // Act
      const found = await search(newer);
      const stale = await search(older);

      // Assert
      expect(ids(found)).toEqual([CONTRACT_IDS.budget]);
      expect(stale.total).toBe(0);
    });

    it('replaces a document when the same version is written again', async () => {
      // Arrange
      const document: IndexedDocument = { ...base, id: id(9), title: 'Warehouse note', labels: [{ id: REPORTS, name: 'Logistics' }], ...at('2024-06-01') };
      await index.upsert(document);
      await index.upsert({ ...document, labels: [{ id: REPORTS, name: 'Shipping' }] });
      await subject.refresh();

      // Act
      const renamed = await search('shipping');
      const old = await search('logistics');

      // Assert
      expect(ids(renamed)).toEqual([id(9)]);
      expect(old.total).toBe(0);
    });

    it("never returns another workspace's documents", async () => {
      // Arrange
      const query = 'invoice';

      // Act
      const results = await searchIn(other, query);

      // Assert
      expect(sorted(ids(results))).toEqual(sorted(OTHER_CORPUS.map((document) => document.id)));
    });

    it("counts the total and the facets over the workspace's documents only", async () => {
      // Arrange
      const query = 'invoice';

      // Act
      const results = await searchIn(other, query, { perPage: 1 });

      // Assert
      expect(results.total).toBe(2);
      expect(results.facets).toEqual({ mime_types: { 'image/jpeg': 1, 'application/pdf': 1 }, labels: { [FINANCE]: 1, [OTHER_LABEL]: 2 } });
    });

    it("counts only the workspace's documents when filtered by a label both workspaces use", async () => {
      // Arrange
      const filters: SearchFilters = { labels: [FINANCE], mimeTypes: ['image/jpeg', 'application/pdf'] };

      // Act
      const results = await searchIn(other, 'invoice', { filters });

      // Assert
      expect(ids(results)).toEqual([otherId(1)]);
      expect(results.total).toBe(1);
      expect(results.facets).toEqual({ mime_types: { 'image/jpeg': 1 }, labels: { [FINANCE]: 1, [OTHER_LABEL]: 1 } });
    });

    it("finds none of another workspace's documents by substring, exact value or phrase", async () => {
      // Arrange
      const clauses: SearchClause[] = [
        { field: 'title', value: '4711', type: 'contains' },
        { field: 'labels', value: 'finance', type: 'exact' },
        { field: 'content', value: 'payment is due', type: 'match' },
      ];

      // Act
      const results = await advancedSearch(
        { searchIndex: other },
        { must: [], should: clauses, mustNot: [], filters: {}, sort: [], page: 1, perPage: 20, highlight: true, fuzzy: true },
      );

      // Assert
      expect(ids(results)).toEqual([otherId(1)]);
    });

    it('finds nothing in a workspace without entries', async () => {
      // Arrange
      const empty = subject.store.forWorkspace(EMPTY_WORKSPACE);

      // Act
      const results = await searchIn(empty, 'invoice', { fuzzy: true });

      // Assert
      expect(results).toEqual({ results: [], total: 0, facets: { mime_types: {}, labels: {} } });
    });

    it("leaves another workspace's entry when removing its id", async () => {
      // Arrange
      const document: IndexedDocument = { ...base, id: id(10), title: 'Turbine manual', ...at('2024-06-02') };
      await index.upsert(document);
      await subject.refresh();

      // Act
      await other.remove(document.id, 1);
      await subject.refresh();

      // Assert
      expect(ids(await search('turbine'))).toEqual([document.id]);
    });

    it("leaves another workspace's entry when upserting its id, even with a newer version", async () => {
      // Arrange
      const document: IndexedDocument = { ...base, id: id(11), title: 'Harbour permit', ...at('2024-06-03') };
      await index.upsert(document);
      await subject.refresh();

      // Act
      await other.upsert({ ...document, version: 5, title: 'Hijacked permit', content: 'hijacked' });
      await subject.refresh();

      // Assert
      const kept = await search('harbour');
      expect(kept.results.map((hit) => [hit.document_id, hit.title])).toEqual([[document.id, 'Harbour permit']]);
      expect((await search('hijacked')).total).toBe(0);
    });
  });
}
