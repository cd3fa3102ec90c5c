import type { Role } from '../principal';

/** What a token says about its bearer. */
export interface TokenClaims {
  userId: string;
  role: Role;
  tokenVersion: number;
  /** Unique token id, the handle for revocation. */
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
}

export interface IssuedToken {
  token: string;
  claims: TokenClaims;
}

export interface VerifyOptions {
  /** Accept a token that expired at most this many seconds ago (refresh); signature, issuer and audience still hold. */
  expiredGraceSeconds?: number;
}

/** Signs and checks bearer tokens. `verify` throws an UNAUTHORIZED AppError for anything it does not trust. */
export interface TokenService {
  issue(subject: { userId: string; role: Role; tokenVersion: number }): Promise<IssuedToken>;
  verify(token: string, options?: VerifyOptions): Promise<TokenClaims>;
}

/** Tokens that must no longer be accepted before they expire (logout, refresh rotation). */
export interface RevokedTokenStore {
  /**
   * Records the token id as revoked until `keepUntil`. Returns false when it was already revoked, so that
   * two concurrent refreshes of one token cannot both succeed.
   */
  revoke(jti: string, keepUntil: Date): Promise<boolean>;
  isRevoked(jti: string): Promise<boolean>;
}
