import type { Principal } from '../principal';
import { notFound } from '../errors';
import { endSessions, type SessionDeps } from '../connections/sessions';
import { memberOf, refuseRemovingOperator } from './member-rules';
import type { UserRepository } from './ports';
import { releaseCounted, type CountedQuotaDeps } from '../quotas/counted-quota';

export interface DeleteWorkspaceUserDeps extends SessionDeps, Pick<CountedQuotaDeps, 'quotaCounts'> {
  users: UserRepository;
}

/**
 * A workspace admin removes a member: their username and email are free again, their tokens stop working on
 * the next request (the user is gone), and their WebSocket connections are marked ended (the `events`
 * consumer then sends them UNAUTHORIZED, `user_deleted`, and closes them). Their documents stay with the
 * workspace. The workspace's last admin and the operator cannot be removed (DUPLICATE_RESOURCE with
 * details.reason); an admin may remove themselves otherwise.
 */
export async function deleteWorkspaceUser(deps: DeleteWorkspaceUserDeps, admin: Principal, id: string): Promise<void> {
  const member = await memberOf(deps.users, admin.workspaceId, id);
  if (member.operator) await refuseRemovingOperator(deps.users, member);
  const deleted = await deps.users.delete(admin.workspaceId, id);
  if (!deleted) throw notFound('User', id);
  await releaseCounted(deps, admin.workspaceId, 'members', async () => (await deps.users.list(admin.workspaceId)).length);
  await endSessions(deps, { userId: id }, 'user_deleted');
}
