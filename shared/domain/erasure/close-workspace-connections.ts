import type { ConnectionRepository, ConnectionSender } from '../connections/ports';
import type { WorkspaceConnectionCloser } from './ports';

/**
 * Closes every authenticated WebSocket connection of a workspace through the sender (a connection gone already
 * is no failure); their items go with the workspace's table items.
 */
export const workspaceConnectionCloser = (connections: Pick<ConnectionRepository, 'listAuthenticated'>, sender: Pick<ConnectionSender, 'close'>): WorkspaceConnectionCloser => ({
  closeAll: async (workspaceId) => {
    const open = await connections.listAuthenticated({ workspaceId });
    await Promise.all(open.map((connection) => sender.close(connection.id).catch(() => undefined)));
    return open.length;
  },
});
