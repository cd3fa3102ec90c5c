import type { ChannelDeps } from './ports';

/** Forgets a closed connection and frees its place in its user's limit. */
export async function closeConnection(deps: Pick<ChannelDeps, 'connections'>, connectionId: string): Promise<void> {
  await deps.connections.remove(connectionId);
}
