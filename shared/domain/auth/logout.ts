import { endSessions, type SessionDeps } from '../connections/sessions';
import type { Principal } from '../principal';
import type { RevokedTokenStore } from './ports';
import { revocationHorizon } from './session';

export interface LogoutDeps extends SessionDeps {
  revokedTokens: RevokedTokenStore;
  refreshGraceSeconds: number;
}

/**
 * Ends the presented token: neither it nor a refresh of it is accepted afterwards, and the WebSocket
 * connections authenticated with it are marked ended, after which the `events` consumer sends them
 * UNAUTHORIZED and closes them (other tokens' connections stay).
 */
export async function logout(deps: LogoutDeps, principal: Principal): Promise<void> {
  await deps.revokedTokens.revoke(principal.jti, revocationHorizon(principal.tokenExpiresAt, deps.refreshGraceSeconds));
  await endSessions(deps, { userId: principal.userId, tokenId: principal.jti }, 'logout');
}
