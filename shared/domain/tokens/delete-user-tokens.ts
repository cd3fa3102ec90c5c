import type { ApiTokenRepository } from './ports';

export interface DeleteUserTokensDeps {
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
  return deleted.filter(Boolean).length;
}
