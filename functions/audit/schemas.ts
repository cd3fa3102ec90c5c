import * as z from '../../shared/zod';
import { pageFields } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

const instant = () => z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-29T08:00:00Z' });

/** `GET /api/audit`'s filters, a page of them, and (the operator's alone) the workspace to read. */
export const auditQuery = z.lazy(() =>
  z.strictObject({
    ...pageFields(),
    from: z.optional(instant()),
    to: z.optional(instant()),
    actor: z.optional(z.uuid('must be a user id (UUID)')),
    action: z.optional(z.string().check(z.regex(/^[a-z_]+(\.[a-z_]+)?$/, 'must be an action such as document.deleted, or a target type such as document'))),
    target: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    workspace_id: z.optional(z.uuid('must be a workspace id (UUID)')),
  }),
);

/** The audit group's route contracts, by operation id (the API contract's operationId). */
export const routes = {
  // A workspace's admins read its log; the operator any workspace's (workspace_id).
  listAudit: contract({ key: 'GET /api/audit', access: 'admin', query: auditQuery }),
} as const satisfies RouteContracts;
