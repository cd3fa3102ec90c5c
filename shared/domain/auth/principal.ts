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
}
