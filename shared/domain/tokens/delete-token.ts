import { endSessions, type SessionDeps } from '../connections/sessions';
import { notFound } from '../errors';
import { hasRole, type Principal } from '../principal';
import { apiTokenSessionId } from './authenticate-token';
import type { ApiTokenRepository } from './ports';
import { releaseCounted, type CountedQuotaDeps } from '../quotas/counted-quota';

export interface DeleteTokenDeps extends SessionDeps, Pick<CountedQuotaDeps, 'quotaCounts'> {
  apiTokens: ApiTokenRepository;
}

/**
 * Revokes an API token: the caller's own, or as a workspace admin any token of the workspace. The next request
 * with it is 401, and the WebSocket connections it authenticated are marked ended (the `events` consumer sends
 * them UNAUTHORIZED and closes them). A token of another user (for a non-admin) or of another workspace is
 * 404 like an unknown id.
 */
export async function deleteApiToken(deps: DeleteTokenDeps, caller: Principal, id: string): Promise<void> {
  const token =
    (await deps.apiTokens.findById(caller.workspaceId, id, caller.userId)) ??
    (hasRole(caller.role, 'admin') ? await deps.apiTokens.findById(caller.workspaceId, id) : null);
  if (!token || !(await deps.apiTokens.delete(token))) throw notFound('API token', id);
  await releaseCounted(deps, caller.workspaceId, 'api_tokens', async () => (await deps.apiTokens.listForWorkspace(caller.workspaceId)).length);
  await endSessions(deps, { userId: token.user_id, tokenId: apiTokenSessionId(token.id) }, 'logout');
}
