/** One document: thumbnail, metadata, labels, its text with the search's words marked, and its actions. */
import { useEffect, useState } from 'preact/hooks';
import { deleteDocument, download, getDocument, listLabels, retryOcr, updateDocument } from '../api';
import { onLive } from '../live';
import { navigate } from '../router';
import { can, session } from '../session';
import { ErrorNote, Field, formatBytes, formatDate, Page, StatusBadge, Thumbnail, useAction, useLoad } from '../ui';

/** The text as runs, with the query's words marked (as elements built from text, never parsed HTML). */
function MarkedText({ text, query }: { text: string; query: string }) {
  const words = query
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 && !['AND', 'OR', 'NOT'].includes(word))
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!words.length) return <pre class="content" tabIndex={0} aria-label="Document text">{text}</pre>;
  const parts = text.split(new RegExp(`(${words.join('|')})`, 'giu'));
  return <pre class="content" tabIndex={0} aria-label="Document text">{parts.map((part, index) => (index % 2 ? <mark key={index}>{part}</mark> : part))}</pre>;
}

export function DocumentPage({ id, params }: { id: string; params: URLSearchParams }) {
  const doc = useLoad(() => getDocument(id), [id]);
  const labels = useLoad(listLabels, []);
  const action = useAction();
  const [editing, setEditing] = useState(false);
  const [chosenLabel, setChosenLabel] = useState('');
  const editor = can.edit(session()?.user);

  useEffect(
    () =>
      onLive((event) => {
        if ((event.type === 'ocr_progress' || event.type === 'document_updated') && event.data?.['document_id'] === id) doc.reload();
      }),
    [id],
  );

  const value = doc.value;
  if (!value) return <Page title="Document">{doc.error ? <ErrorNote error={doc.error} /> : <p>Loading…</p>}</Page>;
  const labelOf = (labelId: string) => labels.value?.find((label) => label.id === labelId);
  const setLabels = (next: string[]) => action.run(async () => (await updateDocument(id, { labels: next }), doc.reload()));

  return (
    <Page title={value.title || value.filename}>
      <ErrorNote error={action.error} />
      <div class="doc">
        <Thumbnail id={value.id} version={value.updated_at} alt={`First page of ${value.title || value.filename}`} size={200} />
        <dl class="meta">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={value.status} />
            {value.failure_reason ? <span class="sub"> {value.failure_reason}</span> : null}
          </dd>
          <dt>File</dt>
          <dd>{value.filename}</dd>
          <dt>Type</dt>
          <dd>{value.mime_type}</dd>
          <dt>Size</dt>
          <dd>{formatBytes(value.size)}</dd>
          <dt>Language</dt>
          <dd>{value.language}</dd>
          <dt>OCR confidence</dt>
          <dd>{value.ocr_confidence === null ? '—' : `${Math.round(value.ocr_confidence * 100)} %`}</dd>
          <dt>Created</dt>
          <dd>{formatDate(value.created_at)}</dd>
          <dt>Updated</dt>
          <dd>{formatDate(value.updated_at)}</dd>
          {Object.entries(value.metadata ?? {}).map(([key, item]) => (
            <>
              <dt key={`k-${key}`}>{key}</dt>
              <dd key={`v-${key}`}>{String(item)}</dd>
            </>
          ))}
        </dl>
      </div>
      <div class="actions">
        <button type="button" onClick={() => void action.run(() => download(value.id, value.filename))}>
          Download
        </button>
        {editor ? (
          <>
            <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit
            </button>
            <button type="button" onClick={() => void action.run(async () => (await retryOcr(value.id), doc.reload()))}>
              Retry OCR
            </button>
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (confirm(`Delete "${value.title || value.filename}"?`)) void action.run(async () => (await deleteDocument(value.id), navigate('/documents')));
              }}
            >
              Delete
            </button>
          </>
        ) : null}
      </div>
      {editing && editor ? (
        <form
          aria-label="Edit document"
          onSubmit={(event) => {
            event.preventDefault();
            const title = String(new FormData(event.currentTarget).get('title') ?? '');
            void action.run(async () => (await updateDocument(value.id, { title }), setEditing(false), doc.reload()));
          }}
        >
          <Field label="Title" name="title" defaultValue={value.title} required error={action.error} />
          <button type="submit" class="primary" disabled={action.busy}>
            Save
          </button>
        </form>
      ) : null}
      <section aria-labelledby="labels-title">
        <h2 id="labels-title">Labels</h2>
        <ul class="chips">
          {value.labels.map((labelId) => {
            const label = labelOf(labelId);
            return (
              <li key={labelId} class="chip">
                <span class="swatch" style={{ background: label?.color ?? '#888888' }} aria-hidden="true" />
                {label?.name ?? labelId}
                {editor ? (
                  <button type="button" class="link" aria-label={`Remove label ${label?.name ?? labelId}`} onClick={() => void setLabels(value.labels.filter((other) => other !== labelId))}>
                    ×
                  </button>
                ) : null}
              </li>
            );
          })}
          {!value.labels.length ? <li>None</li> : null}
        </ul>
        {editor ? (
          <form
            class="inline"
            aria-label="Assign a label"
            onSubmit={(event) => {
              event.preventDefault();
              if (chosenLabel) void setLabels([...value.labels, chosenLabel]).then(() => setChosenLabel(''));
            }}
          >
            <label for="add-label">Add a label</label>
            <select id="add-label" value={chosenLabel} onChange={(event) => setChosenLabel(event.currentTarget.value)}>
              <option value="">Choose…</option>
              {(labels.value ?? [])
                .filter((label) => !value.labels.includes(label.id))
                .map((label) => (
                  <option key={label.id} value={label.id}>
                    {label.name}
                  </option>
                ))}
            </select>
            <button type="submit" disabled={!chosenLabel || action.busy}>
              Add
            </button>
          </form>
        ) : null}
      </section>
      <section aria-labelledby="text-title">
        <h2 id="text-title">Text</h2>
        {value.content ? <MarkedText text={value.content} query={params.get('q') ?? ''} /> : <p>No text yet.</p>}
      </section>
    </Page>
  );
}
