import type { HttpGate, RequestGate } from '../../shared/container/kit/request-gate';
import type { ConnectionRepository } from '../../shared/domain/connections/ports';
import type { ErasureQueue, ErasureRepository } from '../../shared/domain/erasure/ports';
import type { WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import type { SourceRepository } from '../../shared/domain/sources/ports';
import { changeWorkspace, listWorkspaces, renameWorkspace, type ManageWorkspacesDeps } from '../../shared/domain/workspaces/manage-workspaces';
import { getWorkspace } from '../../shared/domain/workspaces/workspace-overview';
import { deleteOwnWorkspace, deleteWorkspaceAsOperator } from '../../shared/domain/erasure/request-erasure';
import { httpHandler } from '../../shared/http/pipeline';
import { json } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/** What the workspace routes use; a workspace's sources are counted against its plan. */
export type WorkspacesDeps = HttpGate &
  Pick<RequestGate, 'apiTokens' | 'clock' | 'plans' | 'usage' | 'users' | 'workspaces'> & { connections: ConnectionRepository; erasureQueue: ErasureQueue; erasures: ErasureRepository } &
  WorkspaceScoped<{ sources: Pick<SourceRepository, 'list'> }>;

/** What the workspace routes read: the deps, and how many members, sources and API tokens a workspace holds. */
export const workspaceDepsOf = (c: WorkspacesDeps): ManageWorkspacesDeps => ({
  ...c,
  held: async (workspaceId) => {
    const [members, sources, tokens] = await Promise.all([
      c.users.list(workspaceId),
      c.forWorkspace(workspaceId).sources.list(),
      c.apiTokens.listForWorkspace(workspaceId),
    ]);
    return { members: members.length, sources: sources.length, api_tokens: tokens.length };
  },
});

/**
 * The caller's workspace (GET /api/workspace: every member; PUT /api/workspace: its admins) and the operator's
 * view of every workspace (GET /api/workspaces, PUT /api/workspaces/{id}: plan, suspend, resume).
 */
export const createWorkspacesHandler = (c: WorkspacesDeps) => {
  const deps = workspaceDepsOf(c);
  return httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.getWorkspace,
        handle: async ({ principal }) => json(200, await getWorkspace(deps, principal)),
      }),
      route({
        ...routes.renameWorkspace,
        handle: async ({ principal, body }) => json(200, await renameWorkspace(deps, principal, body.name)),
      }),
      route({
        ...routes.listWorkspaces,
        handle: async ({ query }) => json(200, await listWorkspaces(deps, { page: query.page, perPage: query.per_page })),
      }),
      route({
        ...routes.changeWorkspace,
        handle: async ({ params, body }) => json(200, await changeWorkspace(deps, params.id, body)),
      }),
      route({
        ...routes.deleteWorkspace,
        handle: async ({ principal, body }) => json(202, await deleteOwnWorkspace(c, principal, body.confirm)),
      }),
      route({
        ...routes.deleteWorkspaceAsOperator,
        handle: async ({ principal, params }) => json(202, await deleteWorkspaceAsOperator(c, principal, params.id)),
      }),
    ],
  });
};
