import type { Role } from '../principal';

/** What the service keeps between sending a browser to the provider and the provider sending it back. */
export interface PendingLogin {
  /** The `state` parameter: the key of the pending login, unguessable, used once. */
  state: string;
  /** Expected in the ID token: binds the token to this login. */
  nonce: string;
  /** The PKCE secret whose S256 hash went out with the authorization request. */
  code_verifier: string;
  created_at: string;
  expires_at: string;
}

/** An authorization request ready to send the browser to, and the secrets to remember until the callback. */
export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The parameters the provider sent back to the redirect URI (RFC 9207 `iss` when it sends one). */
export interface CallbackParams {
  code: string;
  state: string;
  iss?: string | undefined;
}

/** Who the provider says signed in, taken from an ID token whose signature, issuer, audience, nonce and expiry held. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  email_verified: boolean | null;
  preferred_username: string | null;
  name: string | null;
  /** Every claim of the ID token, for the role mapping. */
  claims: Record<string, unknown>;
}

/**
 * The relying party's side of the OpenID Connect authorization code flow with PKCE (S256), state and nonce.
 * Both methods throw AppErrors: SERVICE_UNAVAILABLE when the provider cannot be reached (discovery, token
 * endpoint, keys), UNAUTHORIZED when the provider refuses the code or the ID token does not hold.
 */
export interface OidcClient {
  /** Builds the provider's authorization URL with a fresh state, nonce and PKCE verifier. */
  startAuthorization(): Promise<AuthorizationRequest>;
  /** Exchanges the code (with the login's PKCE verifier) and validates the ID token against the login's nonce. */
  redeem(callback: CallbackParams, login: PendingLogin): Promise<VerifiedIdentity>;
}

/** Pending logins by state. A state can be taken once: a replayed, unknown or expired one is gone. */
export interface PendingLoginStore {
  save(login: PendingLogin): Promise<void>;
  /** Removes and returns the login atomically; null when unknown, already taken or expired. */
  take(state: string): Promise<PendingLogin | null>;
}

/** How a first SSO login becomes a user of this service. */
export interface SsoUserPolicy {
  /** The workspace first logins join (OIDC_WORKSPACE_ID; default: the first workspace, the operator's). */
  workspaceId: string;
  defaultRole: Role;
  /** The ID token claim (a string or a list of strings, e.g. `groups`) that the role map reads. */
  roleClaim: string | null;
  /** Claim value → role; the highest role any value maps to wins, else the default role. */
  roleMap: Record<string, Role>;
}
