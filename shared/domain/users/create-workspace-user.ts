import type { Principal, Role } from '../principal';
import { createUser, type NewUser, type RegisterDeps } from './register';
import { toPublicUser, type PublicUser } from './user';

/**
 * A workspace admin adds a user to their own workspace, with any role. Usernames and emails are unique across
 * the deployment: a taken one is refused (DUPLICATE_RESOURCE naming the field), as at registration.
 */
export async function createWorkspaceUser(
  deps: Omit<RegisterDeps, 'registrationMode'>,
  admin: Principal,
  input: NewUser & { role: Role },
): Promise<PublicUser> {
  return toPublicUser(await createUser(deps, input, input.role, admin.workspaceId));
}
