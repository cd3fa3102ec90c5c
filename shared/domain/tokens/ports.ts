/**
 * Personal API tokens: a secret a program presents as a bearer token instead of its user's session. A token
 * acts for its user and never above the user's current role (see {@link SCOPE_ROLE}); only its SHA-256 hash is
 * stored, under which it is found in one read.
 */
import type { Role } from '../principal';

export const TOKEN_SCOPES = ['read', 'write', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The most a scope lets a token do: `read` what a viewer may read (GET only: the pipeline refuses its writes), `write` what an editor may, `admin` what an admin may. */
export const SCOPE_ROLE: Readonly<Record<TokenScope, Role>> = { read: 'viewer', write: 'editor', admin: 'admin' };

/** How many tokens one user may hold (expired ones included, until deleted). */
export const MAX_TOKENS_PER_USER = 50;

/** `last_used_at` is written at most once in this many milliseconds per token. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** A stored token: everything but the secret, which is kept only as {@link ApiTokenRecord.hash}. */
export interface ApiTokenRecord {
  id: string;
  /** SHA-256 of the whole token, hex: the key it is found under. Never leaves the service. */
  hash: string;
  user_id: string;
  workspace_id: string;
  name: string;
  /** The token's first characters (`dst_` and four more), to tell tokens apart in a listing. */
  prefix: string;
  scopes: TokenScope[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}

/** A token as listings show it: never the secret nor its hash. */
export type PublicApiToken = Omit<ApiTokenRecord, 'hash' | 'workspace_id'>;

export const toPublicToken = ({ hash: _hash, workspace_id: _workspace, ...token }: ApiTokenRecord): PublicApiToken => token;

/** Persistence of API tokens. */
export interface ApiTokenRepository {
  /**
   * Stores a new token unless its user already holds `limit` tokens (checked atomically with the write):
   * answers `limit` then.
   */
  create(token: ApiTokenRecord, limit: number): Promise<'created' | 'limit'>;
  /** The token stored under this hash: one strongly consistent read. */
  findByHash(hash: string): Promise<ApiTokenRecord | null>;
  /** One user's tokens in a workspace. */
  listForUser(workspaceId: string, userId: string): Promise<ApiTokenRecord[]>;
  /** Every token of a workspace. */
  listForWorkspace(workspaceId: string): Promise<ApiTokenRecord[]>;
  /** A token of the workspace by id; with `userId`, only that user's. */
  findById(workspaceId: string, id: string, userId?: string): Promise<ApiTokenRecord | null>;
  /** Deletes the token; false when it was already gone. */
  delete(token: ApiTokenRecord): Promise<boolean>;
  /** Sets `last_used_at` to `now` unless it is already at or after `notBefore` (or the token is gone). */
  touch(hash: string, now: string, notBefore: string): Promise<void>;
}
