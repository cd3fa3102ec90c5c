import * as z from '../../shared/zod';
import { pageQuery, visibleNameField } from '../../shared/http/fields';
import { contract, type RouteContracts } from '../../shared/http/route';

/** `{name}`: the workspace's new name. */
export const renameWorkspaceBody = z.lazy(() => z.strictObject({ name: visibleNameField() }));

/** `{plan?, status?}`: at least one; `status` is `active` (resume) or `suspended`. */
export const changeWorkspaceBody = z.lazy(() =>
  z
    .strictObject({
      plan: z.optional(z.string().check(z.minLength(1, 'must name a plan'), z.maxLength(64))),
      status: z.optional(z.enum(['active', 'suspended'], 'must be active or suspended')),
    })
    .check(z.refine((body) => body.plan !== undefined || body.status !== undefined, { message: 'give at least one of plan, status' })),
);

/** `{confirm}`: the workspace's name, repeated, so that no stray call deletes a workspace. */
export const deleteWorkspaceBody = z.lazy(() => z.strictObject({ confirm: z.string("must be the workspace's name") }));

export const workspaceIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a workspace id (UUID)') }));

/** The workspace routes' contracts, by operation id (the API contract's operationId). */
export const routes = {
  getWorkspace: contract({ key: 'GET /api/workspace', access: 'viewer' }),
  // Renaming is a setting of the workspace: its admins', with a session or a token with the admin scope.
  renameWorkspace: contract({ key: 'PUT /api/workspace', access: 'admin', body: renameWorkspaceBody }),
  // Deleting a workspace erases it for good: its admins, with a session (never a token that may have leaked).
  deleteWorkspace: contract({ key: 'DELETE /api/workspace', access: 'admin', session: true, body: deleteWorkspaceBody }),
  // Every workspace, and a workspace's plan and status: the operator's.
  listWorkspaces: contract({ key: 'GET /api/workspaces', access: 'operator', query: pageQuery }),
  changeWorkspace: contract({ key: 'PUT /api/workspaces/{id}', access: 'operator', params: workspaceIdParams, body: changeWorkspaceBody }),
  deleteWorkspaceAsOperator: contract({ key: 'DELETE /api/workspaces/{id}', access: 'operator', session: true, params: workspaceIdParams }),
} as const satisfies RouteContracts;
