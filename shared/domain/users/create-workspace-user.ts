import type { Principal, Role } from '../principal';
import { createCounted, type CountedQuotaDeps } from '../quotas/counted-quota';
import { createUser, type NewUser, type RegisterDeps } from './register';
import { toPublicUser, type PublicUser } from './user';

/**
 * A workspace admin adds a user to their own workspace, with any role. Usernames and emails are unique across
 * the deployment: a taken one is refused (DUPLICATE_RESOURCE naming the field), as at registration. A
 * workspace at its plan's `members` limit is refused (403 `quota_exceeded`).
 */
export async function createWorkspaceUser(
  deps: Omit<RegisterDeps, 'registrationMode'> & CountedQuotaDeps,
  admin: Principal,
  input: NewUser & { role: Role },
): Promise<PublicUser> {
  const user = await createCounted(deps, admin.workspaceId, 'members', membersOf(deps, admin.workspaceId), () =>
    createUser(deps, input, input.role, admin.workspaceId),
  );
  return toPublicUser(user);
}

/** How many members a workspace has now: where its count starts. */
export const membersOf = (deps: Pick<RegisterDeps, 'users'>, workspaceId: string) => async () => (await deps.users.list(workspaceId)).length;
