import type { Principal } from '../principal';
import type { Connection, ConnectionRepository, ConnectionSender, SessionEndReason, SessionSelector, TokenSession } from './ports';

/** Why a connection stops: its session was ended, or its token expired. */
export type ConnectionEnd = SessionEndReason | 'token_expired';

/** The message of the last error a connection gets when it ends, by reason (also listed by the AsyncAPI document). */
export const SESSION_END_MESSAGES: Readonly<Record<ConnectionEnd, string>> = {
  logout: 'The session has ended: its token was logged out',
  password_changed: 'The session has ended: the password was changed',
  user_deleted: 'The session has ended: the user no longer exists',
  workspace_suspended: 'The session has ended: the workspace is suspended',
  token_expired: 'The token has expired: send auth with a fresh token, or connect again',
};

/**
 * The last message a connection gets before it is closed: the P `error` message with UNAUTHORIZED, as for a
 * refused token, and `details.reason` saying which.
 */
export const sessionEndedMessage = (end: ConnectionEnd): string =>
  JSON.stringify({ type: 'error', data: { code: 'UNAUTHORIZED', message: SESSION_END_MESSAGES[end], details: { reason: end } } });

/** The session a principal's token gives a connection. */
export const sessionOf = (principal: Principal): TokenSession => ({
  tokenId: principal.jti,
  tokenVersion: principal.tokenVersion ?? 0,
  expiresAt: principal.tokenExpiresAt.toISOString(),
});

/** Why an authenticated connection may no longer receive anything at `now`, or null while it may. */
export function connectionEnd(connection: Connection, now: Date): ConnectionEnd | null {
  if (connection.ended) return connection.ended;
  if (connection.session && Date.parse(connection.session.expiresAt) <= now.getTime()) return 'token_expired';
  return null;
}

/** Sends the connection its last message and closes it; a connection already gone is left alone. */
export async function endConnection(sender: ConnectionSender, connectionId: string, end: ConnectionEnd): Promise<void> {
  if ((await sender.send(connectionId, sessionEndedMessage(end))) === 'gone') return;
  await sender.close(connectionId);
}

export interface SessionDeps {
  connections: Pick<ConnectionRepository, 'endSessions' | 'moveSessions'>;
}

/**
 * Ends the WebSocket sessions a revocation ends (logout: the token's; a password change: every older token
 * version's; a deleted user: all), after the revocation itself is stored. This only marks their records
 * ended: from then on no publisher delivers to them, in any function, and the `events` consumer, seeing each
 * record change on the table's stream, sends the UNAUTHORIZED error and closes the connection (see
 * {@link sessionEndOf}). So only the functions granted @connections reach the gateway.
 */
export async function endSessions(deps: SessionDeps, selector: SessionSelector, reason: SessionEndReason): Promise<void> {
  await deps.connections.endSessions(selector, reason);
}

/**
 * A refresh replaces a token by a new one of the same user: the connections authenticated with the old token
 * move to the new one, so they live as long as it does and end when it is logged out.
 */
export async function moveSessions(deps: Pick<SessionDeps, 'connections'>, from: { userId: string; tokenId: string }, to: TokenSession): Promise<void> {
  await deps.connections.moveSessions(from, to);
}
