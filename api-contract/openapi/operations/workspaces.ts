import type { routes } from '../../../functions/workspaces/schemas';
import type { GroupDocs } from '../operation-docs';
import { ErasureAccepted, WorkspaceOverview, WorkspacePage } from '../shapes/workspaces';

const workspace = {
  id: '3f0c6a1e-8b2d-4c5e-9f7a-1b2c3d4e5f60',
  name: 'Acme accounting',
  plan: 'team',
  status: 'active',
  created_at: '2026-10-01T08:00:00.000Z',
  member_count: 4,
  usage: {
    month: '2026-11',
    documents_stored: 1200,
    bytes_stored: 734003200,
    documents_uploaded: 140,
    documents_deleted: 12,
    bytes_uploaded: 83886080,
    bytes_deleted: 5242880,
    pages_ocred: 410,
    pages_ocred_by_engine: { tesseract: 380, text_layer: 30 },
    search_requests: 950,
    api_requests: 18210,
  },
  quotas: [
    { quota: 'documents_stored', limit: 10000, used: 1200 },
    { quota: 'bytes_stored', limit: 10737418240, used: 734003200 },
    { quota: 'ocr_pages_per_month', limit: 5000, used: 410 },
    { quota: 'sources', limit: 5, used: 1 },
    { quota: 'members', limit: 10, used: 4 },
    { quota: 'api_tokens', limit: 'unlimited', used: 3 },
  ],
};

const ERASURE =
  'The workspace is `deleting` at once: every request of its users and API tokens answers 403 `details.reason = "workspace_suspended"`, and nothing of it runs. Then it is erased in the background: its members, tokens, documents and files (every object version), labels, sources (a running sync stops), OCR jobs, rules, webhooks, search index entries and WebSocket connections. Its usage rows and a deletion record stay, for billing and audit; the audit log keeps its entries for their 365 days. Asked again, the same deletion is accepted again.';

const erasureAccepted = { workspace_id: workspace.id, status: 'deleting', requested_at: '2026-11-29T08:00:00.000Z' };

const SUSPENSION =
  'A suspended workspace keeps its data, but every request of its users and API tokens answers 403 `FORBIDDEN` with `details.reason = "workspace_suspended"`, its WebSocket connections are closed (`details.reason = "workspace_suspended"`), and its syncs, OCR runs and webhook deliveries wait. Resuming restores all of it. A change takes effect within seconds on every instance.';

export const workspacesDocs: GroupDocs<typeof routes> = {
  getWorkspace: {
    summary: 'Get your workspace',
    description:
      "The caller's workspace: its plan and status, its members, this month's usage (UTC) and each quota of its plan beside what is used of it. Over a quota, an upload, an OCR run or a create of a member, source or API token is refused with 403 `details.reason = \"quota_exceeded\"`, naming `quota`, `limit` and `used`.",
    responses: { 200: { description: 'The workspace.', schema: WorkspaceOverview, example: workspace } },
  },
  renameWorkspace: {
    summary: 'Rename your workspace',
    description: "Changes the caller's workspace's name (its admins).",
    requestExample: { name: 'Acme accounting' },
    responses: { 200: { description: 'The workspace, renamed.', schema: WorkspaceOverview, example: workspace } },
  },
  listWorkspaces: {
    summary: 'List every workspace',
    description: "The operator's view: every workspace, oldest first, with its plan, status, this month's usage and its quotas.",
    responses: {
      200: {
        description: 'A page of workspaces.',
        schema: WorkspacePage,
        example: { data: [workspace], pagination: { page: 1, per_page: 20, total: 1, total_pages: 1, has_next: false, has_prev: false } },
      },
    },
  },
  changeWorkspace: {
    summary: "Change a workspace's plan or status",
    description: `The operator's: \`plan\` (one of the configured plans; 400 naming \`plan\` otherwise) and/or \`status\` (\`suspended\` or \`active\`). ${SUSPENSION}`,
    requestExample: { plan: 'team', status: 'suspended' },
    responses: { 200: { description: 'The workspace, changed.', schema: WorkspaceOverview, example: { ...workspace, status: 'suspended' } } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: "The workspace is being deleted (`workspace_deleting`), or it is the operator's own and would be suspended (`operator_workspace`)." }],
  },
  deleteWorkspace: {
    summary: 'Delete your workspace',
    description: `Its admins, with a session: \`confirm\` must be the workspace's name exactly (400 naming \`confirm\` otherwise). The operator's own workspace cannot be deleted (409 \`operator_workspace\`). ${ERASURE}`,
    requestExample: { confirm: 'Acme accounting' },
    responses: { 202: { description: 'The deletion, accepted.', schema: ErasureAccepted, example: erasureAccepted } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: "It is the operator's own workspace (`operator_workspace`)." }],
  },
  deleteWorkspaceAsOperator: {
    summary: 'Delete a workspace',
    description: `The operator's, with a session: any workspace but their own (409 \`operator_workspace\`). ${ERASURE}`,
    responses: { 202: { description: 'The deletion, accepted.', schema: ErasureAccepted, example: erasureAccepted } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: "It is the operator's own workspace (`operator_workspace`)." }],
  },
};
