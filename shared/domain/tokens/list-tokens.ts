import { forbidden } from '../errors';
import { hasRole, type Principal } from '../principal';
import { toPublicToken, type ApiTokenRepository, type PublicApiToken } from './ports';

export interface ListTokensDeps {
  apiTokens: ApiTokenRepository;
}

/**
 * The caller's API tokens, or with `all` every token of the caller's workspace (its admins only: 403
 * otherwise), oldest first. Never the secrets nor their hashes.
 */
export async function listApiTokens(deps: ListTokensDeps, caller: Principal, { all }: { all: boolean }): Promise<{ tokens: PublicApiToken[] }> {
  if (all && !hasRole(caller.role, 'admin')) {
    throw forbidden("Only the workspace's admins may list every token of it", { required_role: 'admin', role: caller.role });
  }
  const tokens = all ? await deps.apiTokens.listForWorkspace(caller.workspaceId) : await deps.apiTokens.listForUser(caller.workspaceId, caller.userId);
  return {
    tokens: tokens
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map(toPublicToken),
  };
}
