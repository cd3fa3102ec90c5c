import type { Role } from '../users/user';

/** The authenticated caller of a request. */
export interface Principal {
  userId: string;
  username: string;
  email: string;
  role: Role;
  /** Id and expiry of the token the caller presented, for logout. */
  jti: string;
  tokenExpiresAt: Date;
  /**
   * The token's version (a password change moves the user's), so that a WebSocket connection can be ended
   * with the tokens it was opened with. Always set by authentication; optional for callers that build one.
   */
  tokenVersion?: number;
}
