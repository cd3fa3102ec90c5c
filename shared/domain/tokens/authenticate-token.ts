import type { Clock } from '../clock';
import { unauthorized } from '../errors';
import type { Principal, Role } from '../principal';
import { hasRole } from '../principal';
import type { UserRepository } from '../users/ports';
import { LAST_USED_RESOLUTION_MS, SCOPE_ROLE, type ApiTokenRepository, type TokenScope } from './ports';
import { hashToken, isWellFormedToken } from './token-format';

export interface AuthenticateTokenDeps {
  apiTokens: ApiTokenRepository;
  users: UserRepository;
  clock: Clock;
}

/** The id a token's WebSocket sessions are known by (a JWT's is its `jti`). */
export const apiTokenSessionId = (tokenId: string): string => `api-token:${tokenId}`;

const lowerRole = (a: Role, b: Role): Role => (hasRole(a, b) ? b : a);

/** The highest role the scopes allow. */
export const scopeRole = (scopes: readonly TokenScope[]): Role =>
  scopes.map((scope) => SCOPE_ROLE[scope]).reduce((best, role) => (hasRole(role, best) ? role : best), 'viewer');

/**
 * Turns an API token into its user as the caller, as authentication does a JWT: the token must be well formed
 * (its checksum holds, checked before any read), stored (looked up by its hash in one strongly consistent
 * read), not expired, and its user must still exist in the token's workspace. The role is the lower of the
 * user's role now and the token's scopes, so a demotion holds from the next request and a token never acts
 * above its user; the operator's powers need the `admin` scope. `last_used_at` is written at most once a
 * minute (a conditional update; its failure never fails the request).
 */
export async function authenticateApiToken(deps: AuthenticateTokenDeps, token: string): Promise<Principal> {
  if (!isWellFormedToken(token)) throw unauthorized('The token is not valid');
  const hash = hashToken(token);
  const record = await deps.apiTokens.findByHash(hash);
  if (!record) throw unauthorized('The token is no longer valid');
  const now = deps.clock.now();
  if (Date.parse(record.expires_at) <= now.getTime()) throw unauthorized('The token has expired');
  const user = await deps.users.findById(record.user_id);
  if (!user || user.workspace_id !== record.workspace_id) throw unauthorized('The token is no longer valid');
  const lastUsed = record.last_used_at ? Date.parse(record.last_used_at) : 0;
  if (now.getTime() - lastUsed >= LAST_USED_RESOLUTION_MS) {
    await deps.apiTokens
      .touch(hash, now.toISOString(), new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString())
      .catch(() => undefined);
  }
  const role = lowerRole(user.role, scopeRole(record.scopes));
  return {
    userId: user.id,
    username: user.username,
    email: user.email,
    role,
    workspaceId: user.workspace_id,
    operator: user.operator === true && role === 'admin',
    jti: apiTokenSessionId(record.id),
    tokenExpiresAt: new Date(record.expires_at),
    tokenVersion: user.token_version,
    apiToken: { id: record.id, scopes: record.scopes },
  };
}
