import type { Principal } from '../principal';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { MAX_CONNECTIONS_PER_USER, SERVER_EVENT_TYPES, type Connection, type ConnectionRepository, type ConnectionSender, type ServerEventType } from '../connections/ports';
import { connectionEnd, sessionOf, type ConnectionEnd } from '../connections/sessions';

/** What the WebSocket channel's use cases work with. */
export interface ChannelDeps {
  connections: ConnectionRepository;
  connectionSender: ConnectionSender;
  clock: Clock;
}

/** Records a connection that has just opened; it receives nothing until it authenticates. */
export async function openConnection(deps: ChannelDeps, connectionId: string): Promise<void> {
  await deps.connections.open(connectionId, deps.clock.now());
}

/** Forgets a closed connection and frees its place in its user's limit. */
export async function closeConnection(deps: Pick<ChannelDeps, 'connections'>, connectionId: string): Promise<void> {
  await deps.connections.remove(connectionId);
}

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

export type ConnectionState =
  | { state: 'authenticated'; connection: Connection }
  /** Its session was ended (logout, password change) or its token expired: tell it why and close it. */
  | { state: 'ended'; end: ConnectionEnd }
  /** Not authenticated yet, and still within its time to do so. */
  | { state: 'pending' }
  /** Not authenticated in time, or no longer known: the connection should be closed. */
  | { state: 'expired' };

/** Where a connection stands before one of its messages is served. */
export async function connectionState(
  deps: Pick<ChannelDeps, 'connections' | 'clock'>,
  connectionId: string,
  authTimeoutSeconds: number,
): Promise<ConnectionState> {
  const connection = await deps.connections.get(connectionId);
  if (!connection) return { state: 'expired' };
  if (connection.userId !== null) {
    const end = connectionEnd(connection, deps.clock.now());
    return end ? { state: 'ended', end } : { state: 'authenticated', connection };
  }
  const waited = deps.clock.now().getTime() - Date.parse(connection.connectedAt);
  return waited > authTimeoutSeconds * 1000 ? { state: 'expired' } : { state: 'pending' };
}

/** Names a client may subscribe with: the event types, and `notifications` as SPEC.md's table spells it. */
const EVENT_NAMES: ReadonlyMap<string, ServerEventType> = new Map<string, ServerEventType>([
  ...SERVER_EVENT_TYPES.map((type) => [type, type] as const),
  ['notifications', 'notification'],
]);

export type SubscribeResult = { ok: true; events: ServerEventType[] } | { ok: false; unknown: string[] } | { ok: false; gone: true };

/**
 * Replaces the event types a connection receives. A list naming any unknown event changes nothing and reports
 * the unknown names, so a typo never silently narrows (or empties) what the client gets.
 */
export async function subscribeConnection(
  deps: Pick<ChannelDeps, 'connections'>,
  connectionId: string,
  names: string[],
): Promise<SubscribeResult> {
  const unknown = names.filter((name) => !EVENT_NAMES.has(name));
  if (unknown.length) return { ok: false, unknown: [...new Set(unknown)] };
  const events = [...new Set(names.flatMap((name) => EVENT_NAMES.get(name) ?? []))];
  if (!(await deps.connections.subscribe(connectionId, events))) return { ok: false, gone: true };
  return { ok: true, events };
}

/** Sends a last message, then closes the connection. A connection that is already gone is left alone. */
export async function refuseConnection(deps: Pick<ChannelDeps, 'connectionSender'>, connectionId: string, message: string): Promise<void> {
  if ((await deps.connectionSender.send(connectionId, message)) === 'gone') return;
  await deps.connectionSender.close(connectionId);
}

/**
 * The end of a connection's time to authenticate: one that has not authenticated gets `message` and is closed.
 * Answers whether it was closed.
 */
export async function closeIfUnauthenticated(deps: ChannelDeps, connectionId: string, message: string): Promise<boolean> {
  const connection = await deps.connections.get(connectionId);
  if (!connection || connection.userId !== null) return false;
  await refuseConnection(deps, connectionId, message);
  return true;
}

/**
 * Forgets every authenticated connection, for a gateway that has just started and so holds none: records left
 * by a runtime that was killed would otherwise count against their users' limits until they expire.
 */
export async function forgetAllConnections(deps: Pick<ChannelDeps, 'connections'>): Promise<number> {
  // Every workspace's: the runtime that left them held connections of all of them.
  const stale = await deps.connections.listAuthenticated('all');
  await Promise.all(stale.map((connection) => deps.connections.remove(connection.id)));
  return stale.length;
}
