import type { Connection, ChannelDeps } from './ports';
import { connectionEnd, type ConnectionEnd } from './sessions';

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
