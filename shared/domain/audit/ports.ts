import type { Page, PageRequest } from '../pagination';
import type { AuditEntry, AuditQuery } from './audit';

/**
 * The audit log: each workspace's entries, newest first, kept {@link AUDIT_RETENTION_DAYS} days. Append-only:
 * no method changes or deletes an entry (and in the cloud no function's grants could).
 */
export interface AuditLog {
  /** Stores entries; one stored already (same workspace, time and id) is left as it is. */
  append(entries: readonly AuditEntry[]): Promise<void>;
  /** One page of the workspace's entries that match, newest first. */
  list(workspaceId: string, query: AuditQuery, page: PageRequest): Promise<Page<AuditEntry>>;
}

/**
 * Authentication events, recorded where they happen (they change no item the table's stream would show): the
 * adapter adds who asked (address, user agent, request id) from the request being served. Never fails the login.
 */
export interface AuthenticationEvents {
  loginSucceeded(event: { workspaceId: string; userId: string; username: string }): Promise<void>;
  /**
   * The user the name belongs to (null for a name no user has) and the workspace whose log records it: the user's,
   * or the operator's for a name no user has.
   */
  loginFailed(event: { workspaceId: string; userId: string | null; username: string }): Promise<void>;
}

/** Records nothing: for functions and tests without an audit log. */
export const noAuthenticationEvents: AuthenticationEvents = { loginSucceeded: async () => {}, loginFailed: async () => {} };
