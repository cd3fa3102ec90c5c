import { unauthorized } from '../errors';
import type { UserRepository } from '../users/ports';
import type { PasswordHasher, TokenService } from './ports';
import { toSession, type Session } from './session';

export interface LoginDeps {
  users: UserRepository;
  passwords: PasswordHasher;
  tokens: TokenService;
}

/**
 * Exchanges a username and password for a token. An unknown user and a wrong password get the same answer,
 * after the same amount of work.
 */
export async function login(deps: LoginDeps, input: { username: string; password: string }): Promise<Session> {
  const user = await deps.users.findByUsername(input.username);
  const valid = await deps.passwords.verify(input.password, user?.password_hash ?? null);
  if (!user || !valid) throw unauthorized('Invalid username or password');
  const issued = await deps.tokens.issue({ userId: user.id, role: user.role, tokenVersion: user.token_version });
  return toSession(issued, user);
}
