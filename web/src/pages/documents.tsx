/** The documents: every filter and sort of GET /api/documents, paging, thumbnails, live OCR status, upload. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { listDocuments, listLabels, listSources, type DocumentQuery, type DocumentSummary } from '../api';
import { onLive } from '../live';
import { navigate } from '../router';
import { can, session } from '../session';
import { Uploader } from '../upload';
import { ErrorNote, formatBytes, formatDate, Page, Pager, StatusBadge, Thumbnail, useLoad } from '../ui';

const FILTERS = ['status', 'label_ids', 'source_id', 'date_from', 'date_to', 'sort', 'order', 'page', 'per_page'] as const;

function queryOf(params: URLSearchParams): DocumentQuery {
  const query: Record<string, string | number> = {};
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) query[name] = name === 'page' || name === 'per_page' ? Number(value) : value;
  }
  return query as DocumentQuery;
}

export function DocumentsPage({ params }: { params: URLSearchParams }) {
  const query = queryOf(params);
  const key = params.toString();
  const list = useLoad(() => listDocuments({ per_page: 20, ...query }), [key]);
  const labels = useLoad(listLabels, []);
  const sources = useLoad(listSources, []);
  const [live, setLive] = useState<Record<string, { status: string; progress?: number }>>({});
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>();
  const editor = can.edit(session()?.user);

  useEffect(() => {
    const soon = () => {
      clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(list.reload, 500);
    };
    const stop = onLive((event) => {
      const data = event.data ?? {};
      if (event.type === 'ocr_progress' && typeof data['document_id'] === 'string') {
        setLive((state) => ({ ...state, [data['document_id'] as string]: { status: String(data['status']), progress: Number(data['progress']) } }));
        if (data['status'] === 'completed' || data['status'] === 'failed') soon();
      } else if (event.type === 'document_created' || event.type === 'document_updated') soon();
    });
    return () => {
      stop();
      clearTimeout(reloadTimer.current);
    };
  }, [list.reload]);

  const set = (change: Record<string, string | undefined>) => {
    const next: Record<string, string | undefined> = Object.fromEntries(params.entries());
    navigate('/documents', { ...next, page: undefined, ...change });
  };
  const labelName = (id: string) => labels.value?.find((label) => label.id === id)?.name ?? id.slice(0, 8);
  const rows: DocumentSummary[] = list.value?.data ?? [];

  return (
    <Page title="Documents">
      {editor ? <Uploader onUploaded={list.reload} /> : null}
      <form class="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" value={params.get('status') ?? ''} onChange={(event) => set({ status: event.currentTarget.value || undefined })}>
            <option value="">Any</option>
            {['pending', 'processing', 'completed', 'failed'].map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-label">Label</label>
          <select id="filter-label" value={params.get('label_ids') ?? ''} onChange={(event) => set({ label_ids: event.currentTarget.value || undefined })}>
            <option value="">Any</option>
            {(labels.value ?? []).map((label) => (
              <option key={label.id} value={label.id}>
                {label.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-source">Source</label>
          <select id="filter-source" value={params.get('source_id') ?? ''} onChange={(event) => set({ source_id: event.currentTarget.value || undefined })}>
            <option value="">Any</option>
            {(sources.value ?? []).map((source) => (
              <option key={source.id} value={source.id}>
                {source.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-from">From</label>
          <input id="filter-from" type="date" value={params.get('date_from') ?? ''} onChange={(event) => set({ date_from: event.currentTarget.value || undefined })} />
        </div>
        <div class="field">
          <label for="filter-to">To</label>
          <input id="filter-to" type="date" value={params.get('date_to') ?? ''} onChange={(event) => set({ date_to: event.currentTarget.value || undefined })} />
        </div>
        <div class="field">
          <label for="filter-sort">Sort by</label>
          <select id="filter-sort" value={params.get('sort') ?? 'created_at'} onChange={(event) => set({ sort: event.currentTarget.value })}>
            {[
              ['created_at', 'Created'],
              ['updated_at', 'Updated'],
              ['title', 'Title'],
              ['filename', 'File name'],
              ['size', 'Size'],
            ].map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-order">Order</label>
          <select id="filter-order" value={params.get('order') ?? 'desc'} onChange={(event) => set({ order: event.currentTarget.value })}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </div>
        <div class="field">
          <label for="filter-per-page">Per page</label>
          <select id="filter-per-page" value={params.get('per_page') ?? '20'} onChange={(event) => set({ per_page: event.currentTarget.value })}>
            {['20', '50', '100'].map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </form>
      <ErrorNote error={list.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table class="documents" aria-busy={list.loading}>
          <caption class="visually-hidden">Documents</caption>
          <thead>
            <tr>
              <th scope="col">
                <span class="visually-hidden">Thumbnail</span>
              </th>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col" class="wide">
                Labels
              </th>
              <th scope="col" class="wide">
                Size
              </th>
              <th scope="col" class="wide">
                Created
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const state = live[row.id];
              const status = state && row.status !== 'completed' && row.status !== 'failed' ? state.status : row.status;
              return (
                <tr key={row.id} data-document-id={row.id}>
                  <td>
                    <Thumbnail id={row.id} version={row.updated_at} alt="" size={48} />
                  </td>
                  <td>
                    <a href={`#/documents/${row.id}`}>{row.title || row.filename}</a>
                    <div class="sub">{row.filename}</div>
                  </td>
                  <td>
                    <StatusBadge status={status} />
                    {state?.progress !== undefined && status === 'processing' ? <span class="sub"> {Math.round(state.progress)} %</span> : null}
                  </td>
                  <td class="wide">{row.labels.map(labelName).join(', ')}</td>
                  <td class="wide">{formatBytes(row.size)}</td>
                  <td class="wide">{formatDate(row.created_at)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {list.value && !rows.length ? <p>No documents match.</p> : null}
      {list.value ? (
        <Pager
          page={list.value.pagination.page}
          totalPages={list.value.pagination.total_pages}
          total={list.value.pagination.total}
          onPage={(page) => set({ page: String(page) })}
        />
      ) : null}
    </Page>
  );
}
