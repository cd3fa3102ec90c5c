import type { AuditLog } from '../../shared/domain/audit/ports';
import type { HttpGate } from '../../shared/container/kit/request-gate';
import { listAudit } from '../../shared/domain/audit/list-audit';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** An instant as the log stores times (UTC, milliseconds), so that bounds given with any offset compare right. */
const utc = (instant: string | undefined) => (instant === undefined ? undefined : new Date(instant).toISOString());

/** GET /api/audit: the workspace's audit log (its admins), or any workspace's (the operator). No route changes it. */
export type AuditDeps = HttpGate & { audit: AuditLog };

export const createAuditHandler = (c: AuditDeps) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.listAudit,
        handle: async ({ principal, query }) =>
          json(
            200,
            await listAudit(
              c,
              principal,
              { from: utc(query.from), to: utc(query.to), actor: query.actor, action: query.action, target: query.target, workspaceId: query.workspace_id },
              { page: query.page, perPage: query.per_page },
            ),
          ),
      }),
    ],
  });
