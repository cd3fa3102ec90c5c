import type { ApiTokenRepository } from './ports';
import type { QuotaCounts } from '../quotas/ports';

export interface DeleteUserTokensDeps {
  quotaCounts: QuotaCounts;
  apiTokens: ApiTokenRepository;
}

/**
 * Deletes every API token of a user who was removed from the workspace. The tokens already stopped working
 * with the user (authentication finds no user); this keeps them out of the workspace's listing. Called after
 * the user's deletion; a token left behind by a failure here stays refused and can be deleted by an admin.
 */
export async function deleteUserApiTokens(deps: DeleteUserTokensDeps, workspaceId: string, userId: string): Promise<number> {
  const tokens = await deps.apiTokens.listForUser(workspaceId, userId);
  const deleted = await Promise.all(tokens.map((token) => deps.apiTokens.delete(token)));
  const count = deleted.filter(Boolean).length;
  if (count) await deps.quotaCounts.give(workspaceId, 'api_tokens', count, async () => (await deps.apiTokens.listForWorkspace(workspaceId)).length);
  return count;
}
