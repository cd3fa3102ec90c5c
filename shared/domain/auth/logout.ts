import type { Principal } from './principal';
import type { RevokedTokenStore } from './ports';
import { revocationHorizon } from './session';

export interface LogoutDeps {
  revokedTokens: RevokedTokenStore;
  refreshGraceSeconds: number;
}

/** Ends the presented token: neither it nor a refresh of it is accepted afterwards. */
export async function logout(deps: LogoutDeps, principal: Principal): Promise<void> {
  await deps.revokedTokens.revoke(principal.jti, revocationHorizon(principal.tokenExpiresAt, deps.refreshGraceSeconds));
}
