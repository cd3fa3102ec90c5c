/**
 * Who acted, as a request names them: its user (null for a request before authentication: a login, a
 * registration), the API token when one was presented, and where the request came from.
 */
export interface AuditActor {
  user_id: string | null;
  token_id: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
}

/** A change made by the service itself (a scheduled sync, an erasure's completion): no user, no request. */
export const SYSTEM_ACTOR: AuditActor = { user_id: null, token_id: null, ip: null, user_agent: null, request_id: null };

/**
 * One recorded change of state of a workspace. Identifiers and names only, never content (a document's
 * filename, never its text). Append-only: nothing changes or deletes an entry but its expiry.
 */
export interface AuditEntry {
  /** Unique and the same however often the change is delivered (the stream record's id), so appending is idempotent. */
  id: string;
  workspace_id: string;
  /** When it happened (ISO 8601). */
  at: string;
  /** `<target type>.<verb>`, e.g. `document.deleted`, `user.role_changed`, `login.failed`. */
  action: string;
  actor: AuditActor;
  target: { type: string; id: string; name?: string };
  /** What the change was, without content: the fields it changed, a role's or status's from and to. */
  details?: Record<string, unknown>;
}

/** How long an entry is kept. */
export const AUDIT_RETENTION_DAYS = 365;

/** What the audit log's reader filters on. */
export interface AuditQuery {
  /** Bounds on `at`, inclusive, ISO 8601. */
  from?: string | undefined;
  to?: string | undefined;
  /** The acting user's id. */
  actor?: string | undefined;
  /** An action (`document.deleted`) or its target type alone (`document`: every action on documents). */
  action?: string | undefined;
  /** The target's id. */
  target?: string | undefined;
}

/** Whether an entry matches a query's filters (the time bounds aside, which the store reads by). */
export const matchesAudit = (entry: AuditEntry, query: AuditQuery): boolean =>
  (query.actor === undefined || entry.actor.user_id === query.actor) &&
  (query.action === undefined || entry.action === query.action || entry.action.startsWith(`${query.action}.`)) &&
  (query.target === undefined || entry.target.id === query.target);
