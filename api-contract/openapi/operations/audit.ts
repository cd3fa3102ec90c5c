import type { routes } from '../../../functions/audit/schemas';
import type { GroupDocs } from '../operation-docs';
import { AuditPage } from '../shapes/audit';

const entry = {
  id: 'f3c1b1f0-3c1e-4c59-9d7e-0f8e2f4a9b10',
  workspace_id: '3f0c6a1e-8b2d-4c5e-9f7a-1b2c3d4e5f60',
  at: '2026-11-29T08:00:00.000Z',
  action: 'document.deleted',
  actor: {
    user_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    token_id: null,
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0',
    request_id: '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
  },
  target: { type: 'document', id: '9c8b7a6f-5e4d-4c3b-8a29-1f0e9d8c7b6a', name: 'invoice-2026-11.pdf' },
};

export const auditDocs: GroupDocs<typeof routes> = {
  listAudit: {
    summary: "Read the workspace's audit log",
    description:
      "Every change of state of the workspace, newest first: logins (succeeded and failed), token, webhook, user and role changes, documents created, updated and deleted, labels and their assignments, rules, sources and their syncs, settings, exports, imports, and the workspace's name, plan and status. Each names who acted (user, and API token when one was presented), their address and user agent, and the request. The workspace's admins read it; the operator reads any workspace's (`workspace_id`, theirs alone: 403 otherwise). Filters: `from`/`to` (inclusive), `actor` (a user id), `action` (an action, or a target type for all its actions), `target` (an id). Entries are kept 365 days and never change: no route writes or deletes them.",
    responses: {
      200: {
        description: 'A page of entries.',
        schema: AuditPage,
        example: { data: [entry], pagination: { page: 1, per_page: 20, total: 1, total_pages: 1, has_next: false, has_prev: false } },
      },
    },
  },
};
