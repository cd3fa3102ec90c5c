import type { AuthenticationEvents } from '../audit/ports';
import type { TokenService } from '../auth/ports';
import { toSession, type Session } from '../auth/session';
import type { Clock } from '../clock';
import { AppError, validationError } from '../errors';
import type { WorkspaceRepository } from '../workspaces/ports';
import type { UserRepository } from '../users/ports';
import { createCounted, type CountedQuotaDeps } from '../quotas/counted-quota';
import type { User } from '../users/user';
import { placeNewSsoUser, usernameBase, usernameCandidate } from './new-sso-user';
import type { OidcClient, PendingLoginStore, SsoUserPolicy, VerifiedIdentity } from './ports';

export interface CompleteOidcLoginDeps {
  clock: Clock;
  users: UserRepository;
  workspaces: Pick<WorkspaceRepository, 'findById'>;
  tokens: TokenService;
  oidc: { client: OidcClient; pendingLogins: PendingLoginStore; policy: SsoUserPolicy };
  /** Where logins are recorded (the audit log); without it, nowhere. */
  authEvents?: AuthenticationEvents;
  /** The workspace's plan bounds its members: a first login past `members` is refused (403 quota_exceeded). */
  quotas?: CountedQuotaDeps;
}

/** What the provider sent to the callback: a code and state, or an error (RFC 6749 4.1.2.1). */
export interface CallbackInput {
  code?: string | undefined;
  state?: string | undefined;
  iss?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

/** Taken usernames tried before giving up (`name`, `name-2`, ... `name-20`). */
const USERNAME_ATTEMPTS = 20;

/**
 * Ends a single sign-on: takes the pending login by state (once), redeems the code, and signs in the user
 * linked to the provider's (issuer, subject), creating it on the first login. A local account that already
 * uses the email is never taken over: that is a 409.
 */
export async function completeOidcLogin(deps: CompleteOidcLoginDeps, input: CallbackInput): Promise<Session> {
  // The state is consumed first, whatever the outcome, so a callback can never be played twice.
  const login = input.state ? await deps.oidc.pendingLogins.take(input.state) : null;
  if (input.error) {
    throw new AppError('UNAUTHORIZED', 'The identity provider did not sign you in', {
      provider_error: input.error,
      ...(input.error_description ? { provider_error_description: input.error_description } : {}),
    });
  }
  if (!input.code) throw validationError('The callback needs a code', [{ field: 'code', reason: 'is required' }]);
  if (!input.state) throw validationError('The callback needs a state', [{ field: 'state', reason: 'is required' }]);
  if (!login || new Date(login.expires_at) <= deps.clock.now()) {
    throw new AppError('UNAUTHORIZED', 'This sign-in is unknown, expired or already used; start again', { field: 'state' });
  }
  const identity = await deps.oidc.client.redeem({ code: input.code, state: input.state, iss: input.iss }, login);
  const user = (await deps.users.findByIdentity(identity.issuer, identity.subject)) ?? (await createSsoUser(deps, identity));
  const issued = await deps.tokens.issue({ userId: user.id, role: user.role, tokenVersion: user.token_version });
  await deps.authEvents?.loginSucceeded({ workspaceId: user.workspace_id, userId: user.id, username: user.username });
  return toSession(issued, user);
}

async function createSsoUser(deps: CompleteOidcLoginDeps, identity: VerifiedIdentity): Promise<User> {
  if (!identity.email) {
    throw new AppError('UNAUTHORIZED', 'The identity provider did not share an email address', { claim: 'email' });
  }
  if (identity.email_verified === false) {
    throw new AppError('UNAUTHORIZED', 'The identity provider has not verified this email address', { claim: 'email_verified' });
  }
  const { workspaceId, role } = placeNewSsoUser(identity, deps.oidc.policy);
  // A misconfiguration, not the caller's fault: a 500 whose log names the variable.
  if (!(await deps.workspaces.findById(workspaceId))) throw new Error(`OIDC_WORKSPACE_ID ${workspaceId} names no workspace`);
  const base = usernameBase(identity);
  const now = deps.clock.now().toISOString();
  for (let attempt = 1; attempt <= USERNAME_ATTEMPTS; attempt++) {
    const user: User = {
      id: crypto.randomUUID(),
      workspace_id: workspaceId,
      username: usernameCandidate(base, attempt),
      email: identity.email,
      role,
      display_name: identity.name,
      // No password signs in as this user: it is not a password hash, so it never verifies.
      password_hash: `sso!${crypto.randomUUID()}`,
      token_version: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      const create = () => deps.users.create(user, { identity: { issuer: identity.issuer, subject: identity.subject } });
      const members = async () => (await deps.users.list(workspaceId)).length;
      await (deps.quotas ? createCounted(deps.quotas, workspaceId, 'members', members, create) : create());
      return user;
    } catch (error) {
      const field = error instanceof AppError && error.code === 'DUPLICATE_RESOURCE' ? error.details['field'] : null;
      if (field === 'identity') {
        // A concurrent first login of the same person won: sign in as the user it created.
        const winner = await deps.users.findByIdentity(identity.issuer, identity.subject);
        if (winner) return winner;
      }
      if (field === 'email') {
        throw new AppError('DUPLICATE_RESOURCE', 'An account with this email already exists and is not linked to this sign-in', {
          resource: 'user',
          field: 'email',
          reason: 'an existing account uses this email; it is not taken over by single sign-on',
        });
      }
      if (field !== 'username') throw error;
    }
  }
  throw new AppError('DUPLICATE_RESOURCE', 'No free username was found for this sign-in', { resource: 'user', field: 'username' });
}
