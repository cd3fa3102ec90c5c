import { changePassword } from '../../shared/domain/auth/change-password';
import { createWorkspaceUser } from '../../shared/domain/users/create-workspace-user';
import { deleteWorkspaceUser } from '../../shared/domain/users/delete-workspace-user';
import { listUsers } from '../../shared/domain/users/list-users';
import { getProfile, updateProfile } from '../../shared/domain/users/profile';
import { updateWorkspaceUser } from '../../shared/domain/users/update-workspace-user';
import { createApiToken } from '../../shared/domain/tokens/create-token';
import { deleteApiToken } from '../../shared/domain/tokens/delete-token';
import { deleteUserApiTokens } from '../../shared/domain/tokens/delete-user-tokens';
import { listApiTokens } from '../../shared/domain/tokens/list-tokens';
import { everyWorkspaceUsage, workspaceUsage } from '../../shared/domain/usage/get-usage';
import type { HttpGate, RequestGate } from '../../shared/container/kit/request-gate';
import type { ConnectionRepository } from '../../shared/domain/connections/ports';
import type { QuotaCounts } from '../../shared/domain/quotas/ports';
import type { PasswordHasher } from '../../shared/domain/users/ports';
import { httpHandler } from '../../shared/http/pipeline';
import { json, noContent } from '../../shared/http/responses';
import { route } from '../../shared/http/route';
import { routes } from './schemas';

/**
 * The users of the caller's workspace (admins: list, create, change, delete), GET/PUT /api/users/profile and
 * POST /api/users/change-password (the caller), the caller's personal API tokens (GET/POST /api/tokens,
 * DELETE /api/tokens/{id}; an admin also every token of the workspace), and the usage for billing: GET /api/usage (an admin: their
 * workspace's) and GET /api/usage/workspaces (the operator: every workspace's).
 */
export type UsersDeps = HttpGate &
  Pick<RequestGate, 'apiTokens' | 'clock' | 'plans' | 'tokens' | 'usage' | 'users' | 'workspaceStatus' | 'workspaces'> & {
    /** API_TOKEN_MAX_DAYS: the longest an API token may live. */
    apiTokenMaxDays: number;
    connections: ConnectionRepository;
    passwords: PasswordHasher;
    quotaCounts: QuotaCounts;
  };

export const createUsersHandler = (c: UsersDeps) =>
  httpHandler({
    corsOrigins: c.corsOrigins,
    edge: c.edge,
    authenticate: c.authenticate,
    limits: c.limits,
    routes: [
      route({
        ...routes.listUsers,
        handle: async ({ principal, query }) =>
          json(200, await listUsers(c, principal.workspaceId, { page: query.page, perPage: query.per_page })),
      }),
      route({
        ...routes.createUser,
        handle: async ({ principal, body }) => json(201, await createWorkspaceUser(c, principal, body)),
      }),
      route({
        ...routes.updateUser,
        handle: async ({ principal, params, body }) => json(200, await updateWorkspaceUser(c, principal, params.id, body)),
      }),
      route({
        ...routes.deleteUser,
        handle: async ({ principal, params }) => {
          await deleteWorkspaceUser(c, principal, params.id);
          // The user's API tokens already stopped with the user; they also leave the workspace's listing.
          await deleteUserApiTokens(c, principal.workspaceId, params.id);
          return noContent();
        },
      }),
      route({
        ...routes.getProfile,
        handle: async ({ principal }) => json(200, await getProfile(c, principal.userId)),
      }),
      route({
        ...routes.updateProfile,
        handle: async ({ principal, body }) => json(200, await updateProfile(c, principal.userId, body)),
      }),
      route({
        ...routes.changePassword,
        handle: async ({ principal, body }) => {
          const session = await changePassword(c, principal.userId, body);
          return json(200, { message: 'Password changed; tokens issued before now no longer work', ...session });
        },
      }),
      route({
        ...routes.listTokens,
        handle: async ({ principal, query }) => json(200, await listApiTokens(c, principal, { all: query.all })),
      }),
      route({
        ...routes.createToken,
        handle: async ({ principal, body }) => json(201, await createApiToken(c, principal, body)),
      }),
      route({
        ...routes.deleteToken,
        handle: async ({ principal, params }) => {
          await deleteApiToken(c, principal, params.id);
          return noContent();
        },
      }),
      route({
        ...routes.getUsage,
        handle: async ({ principal, query }) => json(200, await workspaceUsage(c, principal, query.month)),
      }),
      route({
        ...routes.listWorkspaceUsage,
        handle: async ({ query }) => json(200, await everyWorkspaceUsage(c, query.month)),
      }),
    ],
  });
