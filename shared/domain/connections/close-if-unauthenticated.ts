import type { ChannelDeps } from './ports';
import { refuseConnection } from './refuse-connection';

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
