import type { Principal } from '../principal';
import type { Clock } from '../clock';
import { notFound } from '../errors';
import { memberOf, refuseRemovingOperator } from './member-rules';
import type { MemberChanges, UserRepository } from './ports';
import { toPublicUser, type PublicUser } from './user';

export interface UpdateWorkspaceUserDeps {
  users: UserRepository;
  clock: Clock;
}

/**
 * A workspace admin changes a member's role, email or display name. A new role holds from the member's next
 * request (authentication reads the stored role). The workspace's last admin cannot be demoted, the operator
 * not at all (DUPLICATE_RESOURCE with details.reason); a taken email is DUPLICATE_RESOURCE.
 */
export async function updateWorkspaceUser(
  deps: UpdateWorkspaceUserDeps,
  admin: Principal,
  id: string,
  changes: MemberChanges,
): Promise<PublicUser> {
  const member = await memberOf(deps.users, admin.workspaceId, id);
  if (member.operator && changes.role !== undefined && changes.role !== 'admin') {
    await refuseRemovingOperator(deps.users, member);
  }
  const updated = await deps.users.updateMember(admin.workspaceId, id, changes, deps.clock.now().toISOString());
  if (!updated) throw notFound('User', id);
  return toPublicUser(updated);
}
