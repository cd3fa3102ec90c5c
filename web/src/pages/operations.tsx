/** Admins: the month's usage and the OCR queue; the operator: every workspace's usage. */
import { useEffect } from 'preact/hooks';
import { cancelJob, listWorkspaces, prioritise, queue, queueStatus, usage, workspaceUsage, type WorkspaceUsage } from '../api';
import { onLive } from '../live';
import { ErrorNote, formatBytes, formatDate, Page, StatusBadge, useAction, useLoad } from '../ui';

function UsageTable({ rows }: { rows: WorkspaceUsage[] }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
      <table>
        <caption class="visually-hidden">Usage</caption>
        <thead>
          <tr>
            <th scope="col">Workspace</th>
            <th scope="col">Documents</th>
            <th scope="col">Stored</th>
            <th scope="col">Pages read</th>
            <th scope="col">Searches</th>
            <th scope="col">Requests</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.workspace_id}>
              <td>{row.name}</td>
              <td>{row.documents_stored}</td>
              <td>{formatBytes(row.bytes_stored)}</td>
              <td>{row.pages_ocred}</td>
              <td>{row.search_requests}</td>
              <td>{row.api_requests}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function UsagePage() {
  const report = useLoad(usage, []);
  return (
    <Page title="Usage">
      <ErrorNote error={report.error} />
      {report.value ? (
        <>
          <p>Month {report.value.month}</p>
          <UsageTable rows={[report.value]} />
        </>
      ) : null}
    </Page>
  );
}

export function WorkspacesPage() {
  const list = useLoad(() => listWorkspaces(1), []);
  const report = useLoad(workspaceUsage, []);
  return (
    <Page title="Workspaces">
      <ErrorNote error={list.error ?? report.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption class="visually-hidden">Workspaces</caption>
          <thead>
            <tr>
              <th scope="col">Workspace</th>
              <th scope="col">Status</th>
              <th scope="col">Plan</th>
              <th scope="col">Members</th>
              <th scope="col" class="wide">
                Created
              </th>
            </tr>
          </thead>
          <tbody>
            {(list.value?.data ?? []).map((workspace) => (
              <tr key={workspace.id}>
                <td>{workspace.name}</td>
                <td>
                  <StatusBadge status={workspace.status} />
                </td>
                <td>{String(workspace.plan)}</td>
                <td>{workspace.member_count}</td>
                <td class="wide">{formatDate(workspace.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.value ? (
        <>
          <h2>Usage in {report.value.month}</h2>
          <UsageTable rows={report.value.workspaces} />
        </>
      ) : null}
    </Page>
  );
}

export function QueuePage() {
  const status = useLoad(queueStatus, []);
  const jobs = useLoad(queue, []);
  const action = useAction();
  useEffect(
    () =>
      onLive((event) => {
        if (event.type === 'queue_status' || event.type === 'ocr_progress') {
          status.reload();
          jobs.reload();
        }
      }),
    [],
  );
  const counts = status.value;
  return (
    <Page title="OCR queue">
      <ErrorNote error={action.error ?? status.error ?? jobs.error} />
      {counts ? (
        <dl class="stats">
          <dt>Pending</dt>
          <dd>{counts.pending}</dd>
          <dt>Processing</dt>
          <dd>{counts.processing}</dd>
          <dt>Completed today</dt>
          <dd>{counts.completed_today}</dd>
          <dt>Failed</dt>
          <dd>{counts.failed}</dd>
        </dl>
      ) : null}
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption class="visually-hidden">OCR jobs</caption>
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Status</th>
              <th scope="col">Priority</th>
              <th scope="col" class="wide">
                Queued
              </th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(jobs.value?.data ?? []).map((job) => (
              <tr key={job.id}>
                <td>
                  <a href={`#/documents/${job.document_id}`}>{job.document_id.slice(0, 8)}</a>
                </td>
                <td>
                  <StatusBadge status={job.status} /> {job.status === 'processing' ? `${job.progress} %` : ''}
                </td>
                <td>{job.priority}</td>
                <td class="wide">{formatDate(job.queued_at)}</td>
                <td>
                  {job.status === 'queued' && job.priority !== 'high' ? (
                    <button type="button" onClick={() => void action.run(() => prioritise(job.id)).then(() => jobs.reload())}>
                      Prioritise
                    </button>
                  ) : null}
                  {job.status === 'queued' || job.status === 'processing' ? (
                    <button type="button" class="danger" onClick={() => void action.run(() => cancelJob(job.id)).then(() => jobs.reload())}>
                      Cancel
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Page>
  );
}
