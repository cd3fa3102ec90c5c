import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { openConnection } from '../../../../shared/domain/connections/open-connection';
import type { ChannelDeps } from '../../../../shared/domain/connections/ports';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';
import { liveGateway } from '../../../support/live-sockets';

describe('openConnection', () => {
  let deps: ChannelDeps & { clock: ManualClock };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    const clock = new ManualClock(new Date());
    const gateway = await liveGateway();
    deps = { connections: new DynamoConnectionRepository(db, tableName, clock), connectionSender: gateway.sender, clock };
    return () => gateway.stop();
  });

  it('records the connection unauthenticated, at the time it opened, subscribed to every event', async () => {
    // Arrange
    const connectionId = crypto.randomUUID();

    // Act
    await openConnection(deps, connectionId);

    // Assert
    expect(await deps.connections.get(connectionId)).toEqual({
      id: connectionId,
      userId: null,
      workspaceId: null,
      subscriptions: null,
      connectedAt: deps.clock.now().toISOString(),
    });
  });

  it('leaves the new connection out of every audience until it authenticates', async () => {
    // Arrange
    const connectionId = crypto.randomUUID();

    // Act
    await openConnection(deps, connectionId);

    // Assert
    const everyone = await deps.connections.listAuthenticated('all');
    expect(everyone.map((connection) => connection.id)).not.toContain(connectionId);
  });
});
