import type { ChannelDeps } from './ports';

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
