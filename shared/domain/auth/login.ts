import type { AuthenticationEvents } from '../audit/ports';
import { unauthorized } from '../errors';
import { BOOTSTRAP_WORKSPACE_ID } from '../workspaces/workspace';
import type { LoginAttemptGuard } from '../limits/ports';
import type { PasswordHasher, UserRepository } from '../users/ports';
import type { TokenService } from './ports';
import { toSession, type Session } from './session';

export interface LoginDeps {
  users: UserRepository;
  passwords: PasswordHasher;
  tokens: TokenService;
  loginAttempts: LoginAttemptGuard;
  /** Where logins are recorded (the audit log); without it, nowhere. */
  authEvents?: AuthenticationEvents;
}

/**
 * Exchanges a username and password for a token. An unknown user and a wrong password get the same answer,
 * after the same amount of work, and count as a failure of that name: a name whose failures are used up is
 * refused before any password is checked (see LoginAttemptGuard).
 *
 * A stored hash made with weaker parameters than the hasher's is replaced while the password is at hand. That is
 * not a password change: the user's other sessions go on.
 */
export async function login(deps: LoginDeps, input: { username: string; password: string }): Promise<Session> {
  await deps.loginAttempts.check(input.username);
  const user = await deps.users.findByUsername(input.username);
  const valid = await deps.passwords.verify(input.password, user?.password_hash ?? null);
  if (!user || !valid) {
    await deps.loginAttempts.failed(input.username);
    // A name no user has is the deployment's concern: the operator's workspace records it.
    await deps.authEvents?.loginFailed({ workspaceId: user?.workspace_id ?? BOOTSTRAP_WORKSPACE_ID, userId: user?.id ?? null, username: input.username });
    throw unauthorized('Invalid username or password');
  }
  if (deps.passwords.needsRehash(user.password_hash)) {
    await deps.users.rehashPassword(user.id, user.password_hash, await deps.passwords.hash(input.password));
  }
  const issued = await deps.tokens.issue({ userId: user.id, role: user.role, tokenVersion: user.token_version });
  await deps.authEvents?.loginSucceeded({ workspaceId: user.workspace_id, userId: user.id, username: user.username });
  return toSession(issued, user);
}
