/**
 * The access model every area shares: the roles of a workspace's members and the authenticated caller of a
 * request. It sits with the clock and the errors below every area, so that no area imports another to learn
 * who is calling.
 */

export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 1, editor: 2, admin: 3 };

/** Roles are ordered: an admin may do what an editor may, an editor what a viewer may. */
export const hasRole = (actual: Role, required: Role): boolean => RANK[actual] >= RANK[required];

/** The authenticated caller of a request. */
export interface Principal {
  userId: string;
  username: string;
  email: string;
  /** The caller's role as stored now (not as when the token was issued): a change holds on the next request. */
  role: Role;
  /** The caller's workspace: what they may see and manage is this workspace's. */
  workspaceId: string;
  /** The deployment's operator (the bootstrap admin, ADMIN_USERNAME); absent means not. */
  operator?: boolean;
  /** Id and expiry of the token the caller presented, for logout. */
  jti: string;
  tokenExpiresAt: Date;
  /**
   * The token's version (a password change moves the user's), so that a WebSocket connection can be ended
   * with the tokens it was opened with. Always set by authentication; optional for callers that build one.
   */
  tokenVersion?: number;
  /**
   * Set when the caller presented a personal API token rather than a session (a JWT): its id and scopes. `role`
   * is then already the lower of the user's role and the scopes'. Routes that need a session refuse it.
   */
  apiToken?: { id: string; scopes: readonly string[] };
}
