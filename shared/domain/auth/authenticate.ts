import { unauthorized } from '../errors';
import type { UserRepository } from '../users/ports';
import type { Principal } from '../principal';
import type { RevokedTokenStore, TokenClaims, TokenService } from './ports';

export interface AuthenticateDeps {
  tokens: TokenService;
  revokedTokens: RevokedTokenStore;
  users: UserRepository;
}

/**
 * Turns a bearer token into the caller: the signature and claims must hold, the token must not be revoked,
 * and its user must still exist with the same token version (a password change ends every older token).
 * Role and workspace come from the stored user, not from the token, so that an admin's change of a role, or
 * the removal of a user, holds from the next request on. That costs one strongly consistent read per request.
 */
export async function authenticate(deps: AuthenticateDeps, token: string): Promise<Principal> {
  return principalFromClaims(deps, await deps.tokens.verify(token));
}

/** The checks that follow signature verification; shared with refresh, which verifies with a grace window. */
export async function principalFromClaims(
  deps: Omit<AuthenticateDeps, 'tokens'>,
  claims: TokenClaims,
): Promise<Principal> {
  const [revoked, user] = await Promise.all([
    deps.revokedTokens.isRevoked(claims.jti),
    deps.users.findById(claims.userId),
  ]);
  if (revoked || !user || user.token_version !== claims.tokenVersion) {
    throw unauthorized('The token is no longer valid');
  }
  return {
    userId: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    workspaceId: user.workspace_id,
    operator: user.operator === true,
    jti: claims.jti,
    tokenExpiresAt: claims.expiresAt,
    tokenVersion: claims.tokenVersion,
  };
}
