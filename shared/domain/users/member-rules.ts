import { conflict, notFound } from '../errors';
import type { UserRepository } from './ports';
import type { User } from './user';

/** A user of the admin's workspace; another workspace's user is unknown here, exactly like a missing id. */
export async function memberOf(users: UserRepository, workspaceId: string, id: string): Promise<User> {
  const user = await users.findById(id);
  if (!user || user.workspace_id !== workspaceId) throw notFound('User', id);
  return user;
}

/**
 * The operator keeps their admin role: nobody demotes or deletes them through the API. When they are also the
 * workspace's only admin, the answer names that (the rule every workspace has), else the operator rule.
 */
export async function refuseRemovingOperator(users: UserRepository, operator: User): Promise<never> {
  const admins = (await users.list(operator.workspace_id)).filter((user) => user.role === 'admin');
  if (admins.length <= 1) {
    throw conflict('A workspace keeps at least one admin: make another member an admin first', {
      resource: 'user',
      reason: 'last_admin',
      workspace_id: operator.workspace_id,
    });
  }
  throw conflict('The operator (the bootstrap admin) stays an admin and cannot be deleted', {
    resource: 'user',
    reason: 'operator',
    id: operator.id,
  });
}
