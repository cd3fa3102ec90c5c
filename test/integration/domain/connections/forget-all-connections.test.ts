import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { CachedConnectionRepository } from '../../../../shared/adapters/local/cached-connection-repository';
import { systemClock } from '../../../../shared/domain/clock';
import { forgetAllConnections } from '../../../../shared/domain/connections/forget-all-connections';
import type { ConnectionRepository } from '../../../../shared/domain/connections/ports';
import { freshTable } from '../../../support/aws-resources';

/**
 * The local gateway's sweep of stale connections when it starts: it sees every workspace's connections, over the
 * table and over the local runtime's view.
 */
describe.each([
  { repository: 'DynamoConnectionRepository', over: (stored: DynamoConnectionRepository): ConnectionRepository => stored },
  { repository: 'CachedConnectionRepository', over: (stored: DynamoConnectionRepository): ConnectionRepository => new CachedConnectionRepository(stored, systemClock) },
])('forgetAllConnections, $repository', ({ over }) => {
  let connections: ConnectionRepository;

  /** One connection in each of two workspaces and one that never authenticated; answers all three ids. */
  const twoWorkspaces = async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) await connections.open(id, new Date());
    await connections.authenticate(ids[0]!, { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() }, 5);
    await connections.authenticate(ids[1]!, { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() }, 5);
    return ids as [string, string, string];
  };

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    connections = over(new DynamoConnectionRepository(db, tableName, systemClock));
  });

  it('forgets the stale connections of every workspace when the gateway starts', async () => {
    // Arrange
    const [first, second] = await twoWorkspaces();

    // Act
    const forgotten = await forgetAllConnections({ connections });

    // Assert
    expect(forgotten).toBe(2);
    expect(await connections.get(first)).toBeNull();
    expect(await connections.get(second)).toBeNull();
  });

  it('frees the places the forgotten connections held in their users’ limits', async () => {
    // Arrange
    const member = { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() };
    const [stale, fresh] = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of [stale, fresh]) await connections.open(id, new Date());
    await connections.authenticate(stale, member, 1);

    // Act
    await forgetAllConnections({ connections });

    // Assert
    expect(await connections.authenticate(fresh, member, 1)).toBe('authenticated');
  });

  it('answers 0 and changes nothing when no connection is authenticated', async () => {
    // Arrange
    const pending = crypto.randomUUID();
    await connections.open(pending, new Date());

    // Act
    const forgotten = await forgetAllConnections({ connections });

    // Assert
    expect(forgotten).toBe(0);
    expect(await connections.get(pending)).not.toBeNull();
  });
});
