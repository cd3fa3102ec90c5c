import type { ChannelDeps } from './ports';

/** Sends a last message, then closes the connection. A connection that is already gone is left alone. */
export async function refuseConnection(deps: Pick<ChannelDeps, 'connectionSender'>, connectionId: string, message: string): Promise<void> {
  if ((await deps.connectionSender.send(connectionId, message)) === 'gone') return;
  await deps.connectionSender.close(connectionId);
}
