/** Search: the box (with fuzzy), facets to narrow, the advanced form; snippets show only their `<mark>` runs. */
import { useState } from 'preact/hooks';
import { advancedSearch, listLabels, search, type AdvancedSearch, type SearchResults } from '../api';
import { navigate } from '../router';
import { ErrorNote, Page, Pager, Snippet, useAction, useLoad } from '../ui';

const PER_PAGE = 20;
const FIELDS = ['all', 'title', 'filename', 'content', 'labels', 'metadata'] as const;
const KINDS = ['match', 'contains', 'exact'] as const;
const MIME_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/tiff', 'image/webp'];
type Clause = { field: (typeof FIELDS)[number]; value: string; type: (typeof KINDS)[number] };
type Group = 'must' | 'should' | 'must_not';

function Results({ results, q, page, onPage }: { results: SearchResults; q: string; page: number; onPage: (page: number) => void }) {
  const totalPages = Math.ceil(results.total / PER_PAGE);
  return (
    <>
      <p role="status">
        {results.total} {results.total === 1 ? 'result' : 'results'}
      </p>
      <ol class="results">
        {results.results.map((hit) => (
          <li key={hit.document_id}>
            <a href={`#/documents/${hit.document_id}?q=${encodeURIComponent(q)}`}>{hit.title}</a>
            {hit.highlights.map((highlight, index) => (
              <p key={index} class="snippet">
                <span class="field-name">{highlight.field}: </span>
                <Snippet text={highlight.snippet} />
              </p>
            ))}
          </li>
        ))}
      </ol>
      {totalPages > 1 ? <Pager page={page} totalPages={totalPages} total={results.total} onPage={onPage} /> : null}
    </>
  );
}

function Advanced() {
  const [clauses, setClauses] = useState<Record<Group, Clause[]>>({ must: [{ field: 'all', value: '', type: 'match' }], should: [], must_not: [] });
  const [results, setResults] = useState<SearchResults | null>(null);
  const action = useAction();
  const change = (group: Group, index: number, patch: Partial<Clause>) =>
    setClauses((all) => ({ ...all, [group]: all[group].map((clause, at) => (at === index ? { ...clause, ...patch } : clause)) }));

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const from = String(form.get('from') ?? '');
    const to = String(form.get('to') ?? '');
    const confidence = String(form.get('min_confidence') ?? '');
    const mimeTypes = form.getAll('mime_types').map(String);
    const pick = (group: Group) => clauses[group].filter((clause) => clause.value.trim());
    const body: AdvancedSearch = {
      query: { must: pick('must'), should: pick('should'), must_not: pick('must_not') },
      filters: {
        ...(from || to ? { date_range: { ...(from ? { from } : {}), ...(to ? { to } : {}) } } : {}),
        ...(mimeTypes.length ? { mime_types: mimeTypes } : {}),
        ...(confidence ? { min_confidence: Number(confidence) / 100 } : {}),
      },
      per_page: PER_PAGE,
    };
    void action.run(async () => setResults(await advancedSearch(body)));
  };

  return (
    <form class="advanced" aria-label="Advanced search" onSubmit={submit}>
      {(['must', 'should', 'must_not'] as const).map((group) => (
        <fieldset key={group}>
          <legend>{group === 'must' ? 'Must match' : group === 'should' ? 'Should match' : 'Must not match'}</legend>
          {clauses[group].map((clause, index) => (
            <div class="clause" key={index}>
              <label>
                Field
                <select value={clause.field} onChange={(event) => change(group, index, { field: event.currentTarget.value as Clause['field'] })}>
                  {FIELDS.map((field) => (
                    <option key={field}>{field}</option>
                  ))}
                </select>
              </label>
              <label>
                How
                <select value={clause.type} onChange={(event) => change(group, index, { type: event.currentTarget.value as Clause['type'] })}>
                  {KINDS.map((kind) => (
                    <option key={kind}>{kind}</option>
                  ))}
                </select>
              </label>
              <label>
                Value
                <input value={clause.value} onInput={(event) => change(group, index, { value: event.currentTarget.value })} />
              </label>
            </div>
          ))}
          <button type="button" onClick={() => setClauses((all) => ({ ...all, [group]: [...all[group], { field: 'all', value: '', type: 'match' }] }))}>
            Add a condition
          </button>
        </fieldset>
      ))}
      <fieldset>
        <legend>Filters</legend>
        <label>
          Created from <input type="date" name="from" />
        </label>
        <label>
          Created to <input type="date" name="to" />
        </label>
        <label>
          Minimum confidence (%) <input type="number" name="min_confidence" min={0} max={100} />
        </label>
        <div role="group" aria-label="Types">
          {MIME_TYPES.map((type) => (
            <label key={type} class="check">
              <input type="checkbox" name="mime_types" value={type} /> {type}
            </label>
          ))}
        </div>
      </fieldset>
      <ErrorNote error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        Search
      </button>
      {results ? <Results results={results} q={clauses.must.map((clause) => clause.value).join(' ')} page={1} onPage={() => undefined} /> : null}
    </form>
  );
}

export function SearchPage({ params }: { params: URLSearchParams }) {
  const q = params.get('q') ?? '';
  const fuzzy = params.get('fuzzy') === 'true';
  const page = Number(params.get('page') ?? '1');
  const mime = params.get('mime') ?? '';
  const label = params.get('label') ?? '';
  const [advanced, setAdvanced] = useState(false);
  const labels = useLoad(listLabels, []);
  const filters = { ...(mime ? { mime_types: [mime] } : {}), ...(label ? { labels: [label] } : {}) };
  const found = useLoad(
    () => (q ? search(q, { page, perPage: PER_PAGE, fuzzy, filters }) : Promise.resolve(null)),
    [q, fuzzy, page, mime, label],
  );
  const go = (change: Record<string, string | undefined>) => navigate('/search', { q, fuzzy: fuzzy ? 'true' : undefined, mime, label, ...change });
  const facets = (found.value?.facets ?? {}) as { mime_types?: Record<string, number>; labels?: Record<string, number> };
  const labelName = (id: string) => labels.value?.find((item) => item.id === id || item.name === id)?.name ?? id;

  return (
    <Page title="Search">
      <form
        class="searchbox"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          go({ q: String(form.get('q') ?? ''), fuzzy: form.get('fuzzy') ? 'true' : undefined, page: undefined });
        }}
      >
        <label for="search-q">Search documents</label>
        <input id="search-q" name="q" type="search" defaultValue={q} key={q} required />
        <label class="check">
          <input type="checkbox" name="fuzzy" defaultChecked={fuzzy} /> Allow typos
        </label>
        <button type="submit" class="primary">
          Search
        </button>
        <button type="button" aria-expanded={advanced} onClick={() => setAdvanced(!advanced)}>
          Advanced
        </button>
      </form>
      {advanced ? <Advanced /> : null}
      <ErrorNote error={found.error} />
      {found.value ? (
        <div class="search-layout">
          <aside aria-label="Narrow the results" class="facets">
            {mime || label ? (
              <button type="button" onClick={() => go({ mime: undefined, label: undefined, page: undefined })}>
                Clear filters
              </button>
            ) : null}
            <h2>Types</h2>
            <ul>
              {Object.entries(facets.mime_types ?? {}).map(([type, count]) => (
                <li key={type}>
                  <button type="button" class="link" aria-pressed={mime === type} onClick={() => go({ mime: mime === type ? undefined : type, page: undefined })}>
                    {type} ({count})
                  </button>
                </li>
              ))}
            </ul>
            <h2>Labels</h2>
            <ul>
              {Object.entries(facets.labels ?? {}).map(([id, count]) => (
                <li key={id}>
                  <button type="button" class="link" aria-pressed={label === id} onClick={() => go({ label: label === id ? undefined : id, page: undefined })}>
                    {labelName(id)} ({count})
                  </button>
                </li>
              ))}
            </ul>
          </aside>
          <div>
            <Results results={found.value} q={q} page={page} onPage={(next) => go({ page: String(next) })} />
          </div>
        </div>
      ) : null}
    </Page>
  );
}
