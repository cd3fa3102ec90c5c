import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { CachedConnectionRepository } from '../../../../shared/adapters/local/cached-connection-repository';
import { systemClock } from '../../../../shared/domain/clock';
import type { ConnectionRepository } from '../../../../shared/domain/connections/ports';
import type { HostProbe } from '../../../../shared/domain/system/ports';
import { systemMetrics } from '../../../../shared/domain/system/system-metrics';
import { freshTable } from '../../../support/aws-resources';

/** The machine's figures do not matter here; only the connection count does. */
const quietHost: HostProbe = {
  cpuUsage: async () => 0,
  memoryUsage: () => 0,
  diskUsage: async () => 0,
  uptimeSeconds: () => 1,
};

/** The system metrics' connection count sees every workspace's connections, over the table and the local runtime's view. */
describe.each([
  { repository: 'DynamoConnectionRepository', over: (stored: DynamoConnectionRepository): ConnectionRepository => stored },
  { repository: 'CachedConnectionRepository', over: (stored: DynamoConnectionRepository): ConnectionRepository => new CachedConnectionRepository(stored, systemClock) },
])('systemMetrics, $repository', ({ over }) => {
  let connections: ConnectionRepository;

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    connections = over(new DynamoConnectionRepository(db, tableName, systemClock));
  });

  it('counts the authenticated connections of every workspace, and not those still unauthenticated', async () => {
    // Arrange
    const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) await connections.open(id, new Date());
    await connections.authenticate(ids[0]!, { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() }, 5);
    await connections.authenticate(ids[1]!, { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() }, 5);

    // Act
    const metrics = await systemMetrics({ host: quietHost, connections });

    // Assert
    expect(metrics.active_connections).toBe(2);
  });
});
