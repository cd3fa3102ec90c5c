/** Admins: the workspace's audit log and its export to one archive. */
import { useEffect, useState } from 'preact/hooks';
import { auditLog, getExport, startExport, type WorkspaceExport } from '../api';
import { ErrorNote, formatBytes, formatDate, Page, Pager, StatusBadge, useAction, useLoad } from '../ui';

export function AuditPage() {
  const [page, setPage] = useState(1);
  const [action, setAction] = useState('');
  const log = useLoad(() => auditLog(page, action || undefined), [page, action]);
  return (
    <Page title="Audit log">
      <form
        class="inline-form"
        aria-label="Filter the audit log"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setAction(String(new FormData(event.currentTarget).get('action') ?? '').trim());
        }}
      >
        <div class="field">
          <label for="audit-action">Action</label>
          <input id="audit-action" name="action" defaultValue={action} placeholder="document.deleted" />
        </div>
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={log.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption class="visually-hidden">Audit log</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col" class="wide">
                Actor
              </th>
            </tr>
          </thead>
          <tbody>
            {(log.value?.data ?? []).map((entry) => (
              <tr key={entry.id}>
                <td>{formatDate(entry.at)}</td>
                <td>{entry.action}</td>
                <td>
                  {entry.target ? `${entry.target.type} ${entry.target.name ?? entry.target.id}` : '—'}
                </td>
                <td class="wide">{entry.actor.user_id ?? 'the service'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {log.value ? <Pager page={page} totalPages={log.value.pagination.total_pages} total={log.value.pagination.total} onPage={setPage} /> : null}
    </Page>
  );
}

export function ExportPage() {
  const action = useAction();
  const [job, setJob] = useState<WorkspaceExport | null>(null);
  useEffect(() => {
    if (!job || job.status === 'completed' || job.status === 'failed') return;
    const timer = setTimeout(() => void getExport(job.id).then(setJob, () => undefined), 1_000);
    return () => clearTimeout(timer);
  }, [job]);
  return (
    <Page title="Export">
      <p>One archive of the workspace: its documents, their text, labels, sources (without passwords) and settings.</p>
      <button type="button" class="primary" disabled={action.busy || (job !== null && job.status !== 'completed' && job.status !== 'failed')} onClick={() => void action.run(async () => setJob(await startExport()))}>
        Export the workspace
      </button>
      <ErrorNote error={action.error} />
      {job ? (
        <div role="status" class="card">
          <p>
            <StatusBadge status={job.status} /> {job.progress ?? 0} %
          </p>
          {job.failure_reason ? <p class="sub">{job.failure_reason}</p> : null}
          {job.status === 'completed' && job.download_url ? (
            <p>
              <a href={job.download_url}>Download the archive</a> ({formatBytes(job.size ?? 0)}, until {formatDate(job.download_expires_at)})
            </p>
          ) : null}
        </div>
      ) : null}
    </Page>
  );
}
