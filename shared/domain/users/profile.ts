import { notFound } from '../errors';
import type { Clock } from '../clock';
import type { ProfileChanges, UserRepository } from './ports';
import { toPublicUser, type PublicUser } from './user';

export interface ProfileDeps {
  users: UserRepository;
  clock: Clock;
}

/** The caller's own record, without secrets. */
export async function getProfile(deps: Pick<ProfileDeps, 'users'>, userId: string): Promise<PublicUser> {
  const user = await deps.users.findById(userId);
  if (!user) throw notFound('User', userId);
  return toPublicUser(user);
}

/** Changes the caller's email and display name; an email that another user has is refused. */
export async function updateProfile(deps: ProfileDeps, userId: string, changes: ProfileChanges): Promise<PublicUser> {
  const user = await deps.users.updateProfile(userId, changes, deps.clock.now().toISOString());
  if (!user) throw notFound('User', userId);
  return toPublicUser(user);
}
