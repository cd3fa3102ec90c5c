import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { CachedConnectionRepository } from '../../shared/adapters/local/cached-connection-repository';
import { systemClock } from '../../shared/domain/clock';
import { forgetAllConnections } from '../../shared/domain/connections/forget-all-connections';
import type { ConnectionRepository } from '../../shared/domain/connections/ports';
import type { HostProbe } from '../../shared/domain/system/ports';
import { systemMetrics } from '../../shared/domain/system/system-metrics';
import { freshTable } from '../support/aws-resources';

/** The machine's figures do not matter here; only the connection count does. */
const quietHost: HostProbe = {
  cpuUsage: async () => 0,
  memoryUsage: () => 0,
  diskUsage: async () => 0,
  uptimeSeconds: () => 1,
};

/**
 * The two readers of the deployment's connections: the local gateway's sweep of stale connections and the
 * system metrics count. Both see every workspace's connections, over the table and over the local runtime's view.
 */
describe.each([
  { repository: 'DynamoConnectionRepository', over: (stored: DynamoConnectionRepository): ConnectionRepository => stored },
  { repository: 'CachedConnectionRepository', over: (stored: DynamoConnectionRepository): ConnectionRepository => new CachedConnectionRepository(stored, systemClock) },
])('connections of every workspace, $repository', ({ over }) => {
  let connections: ConnectionRepository;

  /** One connection in each of two workspaces and one that never authenticated; answers the authenticated ids. */
  const twoWorkspaces = async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) await connections.open(id, new Date());
    await connections.authenticate(ids[0]!, { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() }, 5);
    await connections.authenticate(ids[1]!, { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() }, 5);
    return ids.slice(0, 2);
  };

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    connections = over(new DynamoConnectionRepository(db, tableName, systemClock));
  });

  it('counts the authenticated connections of every workspace in the system metrics', async () => {
    // Arrange
    await twoWorkspaces();

    // Act
    const metrics = await systemMetrics({ host: quietHost, connections });

    // Assert
    expect(metrics.active_connections).toBe(2);
  });

  it('forgets the stale connections of every workspace when the gateway starts', async () => {
    // Arrange
    const [first, second] = await twoWorkspaces();

    // Act
    const forgotten = await forgetAllConnections({ connections });

    // Assert
    expect(forgotten).toBe(2);
    expect(await connections.get(first!)).toBeNull();
    expect(await connections.get(second!)).toBeNull();
  });
});
