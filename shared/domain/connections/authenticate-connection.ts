import type { Principal } from '../principal';
import { AppError } from '../errors';
import { MAX_CONNECTIONS_PER_USER, type ChannelDeps } from './ports';
import { sessionOf } from './sessions';

export type ConnectionAuthResult =
  | { outcome: 'authenticated'; principal: Principal }
  | { outcome: 'unauthorized'; reason: string }
  | { outcome: 'limit'; limit: number }
  | { outcome: 'other_user' }
  | { outcome: 'gone' };

/**
 * Authenticates a connection with an access token, as the HTTP API does with a bearer token; the connection
 * then receives the events of the principal's workspace (and the principal's own). A user holds at
 * most {@link MAX_CONNECTIONS_PER_USER} authenticated connections; the repository enforces it atomically, so
 * the limit holds when several connections authenticate at once. Authenticating again as the same user
 * replaces the token the connection lives by (send a refreshed token to keep it open past the old one's
 * expiry); a connection never changes hands to another user.
 *
 * The token is checked again once the connection is stored: a logout (or password change) stores its
 * revocation and then ends the connections it finds, so one that authenticated meanwhile is caught here.
 */
export async function authenticateConnection(
  deps: Pick<ChannelDeps, 'connections'> & { authenticate(token: string): Promise<Principal> },
  connectionId: string,
  token: string,
): Promise<ConnectionAuthResult> {
  let principal: Principal;
  try {
    principal = await deps.authenticate(token);
  } catch (error) {
    if (error instanceof AppError) return { outcome: 'unauthorized', reason: error.message };
    throw error;
  }
  const outcome = await deps.connections.authenticate(
    connectionId,
    { userId: principal.userId, workspaceId: principal.workspaceId },
    MAX_CONNECTIONS_PER_USER,
    sessionOf(principal),
  );
  if (outcome === 'authenticated') {
    try {
      await deps.authenticate(token);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await deps.connections.remove(connectionId);
      return { outcome: 'unauthorized', reason: error.message };
    }
    return { outcome, principal };
  }
  if (outcome === 'limit') return { outcome, limit: MAX_CONNECTIONS_PER_USER };
  return { outcome };
}
