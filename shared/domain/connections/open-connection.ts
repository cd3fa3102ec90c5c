import type { ChannelDeps } from './ports';

/** Records a connection that has just opened; it receives nothing until it authenticates. */
export async function openConnection(deps: ChannelDeps, connectionId: string): Promise<void> {
  await deps.connections.open(connectionId, deps.clock.now());
}
