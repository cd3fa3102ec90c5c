import type { routes } from '../../../functions/search/schemas';
import type { GroupDocs } from '../operation-docs';
import { SearchResults } from '../shapes/search';

const invoice = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const invoicesLabel = '6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';

const results = {
  results: [
    {
      document_id: invoice,
      title: 'Invoice INV-2024-004711',
      score: 14.82,
      highlights: [
        { field: 'title', snippet: '<mark>Invoice</mark> INV-2024-004711' },
        { field: 'content', snippet: '… please pay this <mark>invoice</mark> within 30 days &amp; quote its number …' },
      ],
    },
  ],
  total: 1,
  facets: { mime_types: { 'application/pdf': 1 }, labels: { [invoicesLabel]: 1 } },
};

// What both searches answer alike, in both descriptions: a client reads one operation, not the group.
const RESULTS = [
  '**Results.** With `highlight` (the default) each hit has a snippet per field that matched: the document\'s text',
  'HTML-escaped, each match wrapped in `<mark></mark>`. `total` and `facets` count every match, not only the page;',
  '`facets.labels` is keyed by label id. Only the first 1000 results can be reached by paging: a page that starts',
  'beyond is 400 on `page`, one that crosses it is cut there, and `total` still gives the true count. Deleted',
  'documents are never found.',
].join(' ');

const TOO_FAR = { code: 'VALIDATION_ERROR', when: 'the page starts beyond result 1000 (400 on `page`): narrow the query instead' } as const;

export const searchDocs: GroupDocs<typeof routes> = {
  search: {
    summary: 'Search documents',
    description: [
      "Searches the caller's workspace with the search box syntax of `q`:",
      '',
      '- Words are AND-ed and matched by stem (`invoices` finds "invoice"); `word*` matches words that start with',
      '  `word` as typed, not with its stem (`thes*` finds "thesis", not "the"); `"quoted phrases"` match words in',
      '  this order. Locally a prefix of 4 characters or more stands for the workspace\'s words that start with it, up',
      '  to 256 of them; a shorter or broader prefix is matched by the index\'s own prefix search.',
      '- `AND`, `OR`, `NOT` (upper case; also `&&`, `||`), `+word` (required), `-word` (excluded) and parentheses to',
      '  group; OR binds looser than AND (`a b OR c` is `(a AND b) OR c`).',
      '- `title:`, `filename:`, `content:`, `labels:` (label names) and `metadata:` (metadata values) limit a word or',
      '  phrase to one field.',
      '- A word of 3 characters or more with a digit in it also matches inside longer codes (`4711` finds',
      '  `INV-2024-004711`).',
      '- `fuzzy=true` allows 1 typo in words of 4 letters or more and 2 from 8 (a swap of two letters counts as one).',
      '',
      '`filters` is a JSON-encoded object: `mime_types`, `labels` (label ids: a document carrying any of them),',
      '`date_from` and `date_to` (ISO 8601 bounds on `created_at`, inclusive; a bare date as `date_to` means the end of',
      'that day), `status` (one or a list) and `min_confidence` (0..1). Malformed JSON is 400 on `filters`, an',
      'unknown or invalid key on `filters.<key>`. Hits come by score, highest first, then by document id.',
      '',
      RESULTS,
    ].join('\n'),
    responses: { 200: { description: 'One page of hits, the total and the facets.', schema: SearchResults, example: results } },
    errors: [
      {
        code: 'VALIDATION_ERROR',
        when:
          '`q` cannot be searched (400 on `q`): it only excludes, offers an excluded word as an alternative (`a OR -b`), leaves a quote or parenthesis open, or has more than 1000 characters or 32 words and phrases',
      },
      TOO_FAR,
    ],
  },
  advancedSearch: {
    summary: 'Search documents with the advanced form',
    description: [
      'The search form. Every `query.must` clause is required and every `query.must_not` clause excluded; of the',
      '`query.should` clauses at least one must match (they are not optional boosts). At least one must or should',
      'clause is needed. A clause\'s `type`:',
      '',
      '- `match`: every word of `value`, by stem, as in the search box;',
      '- `contains`: `value` inside words or numbers (`4711` in `INV-2024-004711`), at least 3 characters;',
      '- `exact`: the whole field equals `value`, case-insensitively; for title, filename, labels and metadata, not',
      '  content.',
      '',
      'A clause\'s `field` is `all` (title, filename, content, label names and metadata values together) or one of',
      'them. Filters: `date_range` (`from`, `to`: ISO 8601 bounds on `created_at`, inclusive; a bare date as `to`',
      'means the end of that day), `mime_types`, `min_confidence` (0..1), `labels` (label ids: a document carrying',
      'any of them) and `status`. `sort` takes up to 5 keys among `relevance`, `created_at`, `updated_at`, `title`',
      'and `size` (`score` and `date` are aliases of `relevance` and `created_at`), each `asc` or `desc` (the',
      'default); without `sort` hits come by relevance, and ties always end with the document id. `fuzzy` (off by',
      'default) allows typos in `match` words as the search box does.',
      '',
      RESULTS,
    ].join('\n'),
    requestExample: {
      query: {
        must: [{ field: 'content', value: 'invoice', type: 'match' }],
        should: [
          { field: 'all', value: '4711', type: 'contains' },
          { field: 'title', value: 'reminder', type: 'match' },
        ],
        must_not: [{ field: 'labels', value: 'Paid', type: 'exact' }],
      },
      filters: { date_range: { from: '2026-01-01', to: '2026-12-31' }, mime_types: ['application/pdf'], min_confidence: 0.8 },
      sort: [{ field: 'created_at', order: 'desc' }],
      page: 1,
      per_page: 20,
    },
    responses: { 200: { description: 'One page of hits, the total and the facets.', schema: SearchResults, example: results } },
    errors: [
      {
        code: 'VALIDATION_ERROR',
        when:
          'the query cannot be searched: no must or should clause (400 on `query`), a `contains` value under 3 characters or a `match` value without a word (on its `value`), `exact` on content (on its `type`)',
      },
      TOO_FAR,
    ],
  },
};
