import type { Clock } from '../clock';
import { conflict, validationError } from '../errors';
import type { Principal } from '../principal';
import { MAX_TOKENS_PER_USER, toPublicToken, type ApiTokenRepository, type PublicApiToken, type TokenScope } from './ports';
import { hashToken, newToken, SHOWN_PREFIX_LENGTH } from './token-format';
import { createCounted, type CountedQuotaDeps } from '../quotas/counted-quota';

export interface CreateTokenDeps extends CountedQuotaDeps {
  apiTokens: ApiTokenRepository;
  clock: Clock;
  /** API_TOKEN_MAX_DAYS: the longest a token may live, and how long one lives that names no expiry. */
  apiTokenMaxDays: number;
}

export interface NewTokenRequest {
  name: string;
  scopes: TokenScope[];
  /** An ISO 8601 instant in the future, at most `apiTokenMaxDays` away; absent: that far away. */
  expires_at?: string | undefined;
}

const DAY_MS = 86_400_000;

/**
 * The caller (with a session: the route refuses API tokens) makes a personal API token. The secret is in the
 * answer only, as `token`: the store keeps its SHA-256. Scopes may name more than the caller's role allows
 * today; at every request the token does at most what both its scopes and its user's role then allow.
 * Every token expires: at `expires_at`, which may be at most API_TOKEN_MAX_DAYS away, or that far away
 * when not given. A user holds at most {@link MAX_TOKENS_PER_USER} tokens (409, `details.reason =
 * "token_limit"`); a workspace at its plan's `api_tokens` limit is refused (403 `quota_exceeded`).
 */
export async function createApiToken(
  deps: CreateTokenDeps,
  caller: Principal,
  request: NewTokenRequest,
): Promise<PublicApiToken & { token: string }> {
  const now = deps.clock.now();
  const latest = now.getTime() + deps.apiTokenMaxDays * DAY_MS;
  let expiresAt = new Date(latest);
  if (request.expires_at !== undefined) {
    expiresAt = new Date(request.expires_at);
    if (expiresAt.getTime() <= now.getTime()) {
      throw validationError('expires_at must be in the future', [{ field: 'expires_at', reason: 'must be in the future' }]);
    }
    if (expiresAt.getTime() > latest) {
      const reason = `must be at most ${deps.apiTokenMaxDays} days away`;
      throw validationError(`expires_at ${reason}`, [{ field: 'expires_at', reason }]);
    }
  }
  const token = newToken();
  const record = {
    id: crypto.randomUUID(),
    hash: hashToken(token),
    user_id: caller.userId,
    workspace_id: caller.workspaceId,
    name: request.name,
    prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
    scopes: TOKEN_SCOPE_ORDER.filter((scope) => request.scopes.includes(scope)),
    created_at: now.toISOString(),
    last_used_at: null,
    expires_at: expiresAt.toISOString(),
  };
  const stored = await createCounted(deps, caller.workspaceId, 'api_tokens', tokensOf(deps, caller.workspaceId), async () => {
    const outcome = await deps.apiTokens.create(record, MAX_TOKENS_PER_USER);
    // Not stored: the workspace's count is given back.
    if (outcome === 'limit') throw tokenLimit;
    return outcome;
  }).catch((error: unknown) => (error === tokenLimit ? 'limit' : Promise.reject(error)));
  if (stored === 'limit') {
    throw conflict(`A user may hold at most ${MAX_TOKENS_PER_USER} API tokens: delete one first`, {
      reason: 'token_limit',
      limit: MAX_TOKENS_PER_USER,
    });
  }
  return { ...toPublicToken(record), token };
}

const TOKEN_SCOPE_ORDER: TokenScope[] = ['read', 'write', 'admin'];

/** A create the user's own limit refused, told apart from other failures. */
const tokenLimit = new Error('token_limit');

/** How many API tokens a workspace holds now: where its count starts. */
export const tokensOf = (deps: Pick<CreateTokenDeps, 'apiTokens'>, workspaceId: string) => async () => (await deps.apiTokens.listForWorkspace(workspaceId)).length;
