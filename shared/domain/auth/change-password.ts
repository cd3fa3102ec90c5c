import { notFound, validationError } from '../errors';
import type { Clock } from '../clock';
import type { TokenService } from './ports';
import { toSession, type Session } from './session';
import { endSessions, type SessionDeps } from '../connections/sessions';
import type { PasswordHasher, UserRepository } from '../users/ports';

export interface ChangePasswordDeps extends SessionDeps {
  users: UserRepository;
  passwords: PasswordHasher;
  tokens: TokenService;
  clock: Clock;
}

/**
 * Replaces the caller's password after checking the current one. Every token issued before stops working,
 * the caller's included, so the caller gets a fresh session back; the user's WebSocket connections opened with
 * those tokens are marked ended (the `events` consumer then sends them UNAUTHORIZED and closes them).
 */
export async function changePassword(
  deps: ChangePasswordDeps,
  userId: string,
  input: { current_password: string; new_password: string },
): Promise<Session> {
  const user = await deps.users.findById(userId);
  if (!user) throw notFound('User', userId);
  if (!(await deps.passwords.verify(input.current_password, user.password_hash))) {
    throw validationError('The current password is not correct', [
      { field: 'current_password', reason: 'does not match the current password' },
    ]);
  }
  if (input.current_password === input.new_password) {
    throw validationError('The new password must differ from the current one', [
      { field: 'new_password', reason: 'same as the current password' },
    ]);
  }
  const hash = await deps.passwords.hash(input.new_password);
  const updated = await deps.users.updatePassword(userId, hash, deps.clock.now().toISOString());
  if (!updated) throw notFound('User', userId);
  await endSessions(deps, { userId, tokenVersionBelow: updated.token_version }, 'password_changed');
  const issued = await deps.tokens.issue({ userId, role: updated.role, tokenVersion: updated.token_version });
  return toSession(issued, updated);
}
