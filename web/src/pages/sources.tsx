/** WebDAV sources: create (the server's checks shown per field), sync now, live sync progress, status. */
import { useEffect, useState } from 'preact/hooks';
import { createSource, deleteSource, listSources, syncSource, syncStatus } from '../api';
import { onLive } from '../live';
import { can, session } from '../session';
import { ErrorNote, Field, formatDate, Page, StatusBadge, useAction, useLoad } from '../ui';

interface Progress {
  processed: number;
  total: number;
  current: string | null;
  state?: string;
}

export function SourcesPage() {
  const sources = useLoad(listSources, []);
  const action = useAction();
  const [progress, setProgress] = useState<Record<string, Progress>>({});
  const editor = can.edit(session()?.user);
  const admin = can.admin(session()?.user);

  useEffect(
    () =>
      onLive((event) => {
        if (event.type !== 'sync_progress') return;
        const data = event.data;
        const id = String(data['source_id']);
        setProgress((all) => ({
          ...all,
          [id]: { processed: Number(data['processed']), total: Number(data['total']), current: (data['current_file'] as string | null) ?? null, state: all[id]?.state },
        }));
        if (Number(data['processed']) >= Number(data['total'])) sources.reload();
      }),
    [],
  );

  const sync = (id: string) =>
    action.run(async () => {
      await syncSource(id);
      setProgress((all) => ({ ...all, [id]: { processed: 0, total: 0, current: null, state: 'queued' } }));
      const status = await syncStatus(id).catch(() => null);
      if (status) setProgress((all) => ({ ...all, [id]: { processed: status.processed, total: status.total, current: status.current_file, state: status.state } }));
    });

  return (
    <Page title="Sources">
      {admin ? (
        <form
          class="stack"
          aria-label="New WebDAV source"
          onSubmit={(event) => {
            event.preventDefault();
            const formElement = event.currentTarget;
            const form = new FormData(formElement);
            const patterns = String(form.get('file_patterns') ?? '')
              .split(',')
              .map((pattern) => pattern.trim())
              .filter(Boolean);
            void action
              .run(() =>
                createSource({
                  name: String(form.get('name')),
                  type: 'webdav',
                  url: String(form.get('url')),
                  username: String(form.get('username')),
                  password: String(form.get('password')),
                  sync_interval: Number(form.get('sync_interval') || 3600),
                  recursive: form.get('recursive') === 'on',
                  file_patterns: patterns,
                }),
              )
              .then((ok) => ok && (formElement.reset(), sources.reload()));
          }}
        >
          <h2>New WebDAV source</h2>
          <Field label="Name" name="name" required error={action.error} />
          <Field label="URL" name="url" type="url" required error={action.error} />
          <Field label="Username" name="username" autocomplete="off" error={action.error} />
          <Field label="Password" name="password" type="password" autocomplete="new-password" error={action.error} />
          <Field label="Sync every (seconds)" name="sync_interval" type="number" defaultValue="3600" error={action.error} />
          <Field label="File patterns (comma-separated)" name="file_patterns" placeholder="*.pdf, scans/**" error={action.error} />
          <label class="check">
            <input type="checkbox" name="recursive" defaultChecked /> Include sub-folders
          </label>
          <button type="submit" class="primary" disabled={action.busy}>
            Create source
          </button>
        </form>
      ) : null}
      <ErrorNote error={action.error ?? sources.error} />
      <ul class="cards">
        {(sources.value ?? []).map((source) => {
          const live = progress[source.id];
          return (
            <li key={source.id} class="card" data-source-id={source.id}>
              <h2>{source.name}</h2>
              <p class="sub">{source.url}</p>
              <p>
                <StatusBadge status={source.status} /> {source.document_count} documents · last sync {formatDate(source.last_sync)} · next {formatDate(source.next_sync)}
              </p>
              {source.status_reason ? <p class="sub">{source.status_reason}</p> : null}
              {live ? (
                <div class="sync" role="status" aria-live="polite">
                  <progress max={Math.max(1, live.total)} value={live.processed} aria-label={`Sync of ${source.name}`} />
                  <span class="sync-count">
                    {live.processed} / {live.total}
                  </span>
                  {live.current ? <span class="sub"> {live.current}</span> : null}
                </div>
              ) : null}
              {editor ? (
                <div class="actions">
                  <button type="button" onClick={() => void sync(source.id)}>
                    Sync now<span class="visually-hidden"> {source.name}</span>
                  </button>
                  {admin ? (
                    <button
                      type="button"
                      class="danger"
                      onClick={() => confirm(`Delete source "${source.name}"?`) && void action.run(() => deleteSource(source.id)).then((ok) => ok && sources.reload())}
                    >
                      Delete<span class="visually-hidden"> {source.name}</span>
                    </button>
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Page>
  );
}
