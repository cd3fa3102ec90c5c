import type { AuditEntry } from '../domain/audit/audit';
import type { AuditLog, AuthenticationEvents } from '../domain/audit/ports';
import type { Clock } from '../domain/clock';
import { logger } from '../observability/logger';
import { currentActor } from './actor-context';

/**
 * Logins recorded in the audit log where they happen, with the address, user agent and request id of the
 * request being served (actor-context.ts). A failure to record is logged, never the login's failure.
 */
export function auditedAuthentication(audit: Pick<AuditLog, 'append'>, clock: Clock): AuthenticationEvents {
  const record = async (workspaceId: string, action: string, userId: string | null, target: AuditEntry['target']) => {
    const request = currentActor();
    const entry: AuditEntry = {
      id: crypto.randomUUID(),
      workspace_id: workspaceId,
      at: clock.now().toISOString(),
      action,
      actor: { user_id: userId, token_id: null, ip: request?.ip ?? null, user_agent: request?.user_agent ?? null, request_id: request?.request_id ?? null },
      target,
    };
    try {
      await audit.append([entry]);
    } catch (error) {
      logger.error('audit: a login could not be recorded', { action, workspace_id: workspaceId, error });
    }
  };
  return {
    loginSucceeded: ({ workspaceId, userId, username }) => record(workspaceId, 'login.succeeded', userId, { type: 'user', id: userId, name: username }),
    // The actor of a failed login is unknown (whoever typed the name); the user the name belongs to is the target.
    loginFailed: ({ workspaceId, userId, username }) =>
      record(workspaceId, 'login.failed', null, userId ? { type: 'user', id: userId, name: username } : { type: 'username', id: username }),
  };
}
