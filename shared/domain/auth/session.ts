import type { Role } from '../principal';
import type { IssuedToken } from './ports';

/** The body a client gets when it obtains a token: login and refresh answer the same way. */
export interface Session {
  token: string;
  expires_at: string;
  user: { id: string; username: string; email: string; role: Role };
}

export const toSession = (
  issued: IssuedToken,
  user: { id: string; username: string; email: string; role: Role },
): Session => ({
  token: issued.token,
  expires_at: issued.claims.expiresAt.toISOString(),
  user: { id: user.id, username: user.username, email: user.email, role: user.role },
});

/** How long a revocation must be remembered: as long as the token could still be refreshed. */
export const revocationHorizon = (expiresAt: Date, refreshGraceSeconds: number): Date =>
  new Date(expiresAt.getTime() + refreshGraceSeconds * 1000);
