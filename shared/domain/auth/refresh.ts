import { unauthorized } from '../errors';
import { moveSessions, type SessionDeps } from '../connections/sessions';
import type { UserRepository } from '../users/ports';
import { principalFromClaims } from './authenticate';
import type { RevokedTokenStore, TokenService } from './ports';
import { revocationHorizon, toSession, type Session } from './session';

export interface RefreshDeps extends Pick<SessionDeps, 'connections'> {
  tokens: TokenService;
  revokedTokens: RevokedTokenStore;
  users: UserRepository;
  refreshGraceSeconds: number;
}

/**
 * Trades a token, expired or not, for a fresh one. The old token must be genuine, expired for no longer than
 * the grace window, not revoked, and of the user's current token version. It is revoked in the same step
 * (rotation), and only one of two concurrent refreshes of it can win. WebSocket connections authenticated with
 * the old token carry on with the new one (they end when it expires or is logged out).
 */
export async function refreshSession(deps: RefreshDeps, token: string): Promise<Session> {
  const claims = await deps.tokens.verify(token, { expiredGraceSeconds: deps.refreshGraceSeconds });
  const principal = await principalFromClaims(deps, claims);
  const firstUse = await deps.revokedTokens.revoke(
    claims.jti,
    revocationHorizon(claims.expiresAt, deps.refreshGraceSeconds),
  );
  if (!firstUse) throw unauthorized('The token is no longer valid');
  const issued = await deps.tokens.issue({
    userId: principal.userId,
    role: principal.role,
    tokenVersion: claims.tokenVersion,
  });
  await moveSessions(
    deps,
    { userId: principal.userId, tokenId: claims.jti },
    { tokenId: issued.claims.jti, tokenVersion: issued.claims.tokenVersion, expiresAt: issued.claims.expiresAt.toISOString() },
  );
  return toSession(issued, { id: principal.userId, ...principal });
}
