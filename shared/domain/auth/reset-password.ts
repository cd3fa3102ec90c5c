import type { Clock } from '../clock';
import { notFound } from '../errors';
import { endSessions, type SessionDeps } from '../connections/sessions';
import type { PasswordHasher, UserRepository } from '../users/ports';
import type { User } from '../users/user';

export interface ResetPasswordDeps extends SessionDeps {
  users: UserRepository;
  passwords: PasswordHasher;
  clock: Clock;
}

/**
 * An operator's password reset: the steps of a password change (./change-password.ts) without the current
 * password. The new hash is stored with token_version bumped, so every token issued before is refused, and the
 * user's WebSocket connections opened with them are ended. No session is issued: the operator is not the user.
 * An unknown username (or a user deleted meanwhile) is NOT_FOUND.
 */
export async function resetPassword(deps: ResetPasswordDeps, username: string, newPassword: string): Promise<User> {
  const user = await deps.users.findByUsername(username);
  if (!user) throw notFound('User', username);
  const hash = await deps.passwords.hash(newPassword);
  const updated = await deps.users.updatePassword(user.id, hash, deps.clock.now().toISOString());
  if (!updated) throw notFound('User', username);
  await endSessions(deps, { userId: updated.id, tokenVersionBelow: updated.token_version }, 'password_changed');
  return updated;
}
