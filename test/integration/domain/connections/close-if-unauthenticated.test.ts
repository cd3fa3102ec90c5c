import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { closeIfUnauthenticated } from '../../../../shared/domain/connections/close-if-unauthenticated';
import { WS_CLOSE_CODES, type ChannelDeps } from '../../../../shared/domain/connections/ports';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';
import { liveGateway, type LiveGateway } from '../../../support/live-sockets';

const TIMED_OUT = JSON.stringify({ type: 'error', data: { code: 'UNAUTHORIZED', message: 'No auth in time', details: {} } });

describe('closeIfUnauthenticated', () => {
  let deps: ChannelDeps;
  let gateway: LiveGateway;

  /** A live client whose connection is stored, as the $connect route stores it. */
  const connected = async () => {
    const client = await gateway.connect();
    await deps.connections.open(client.connectionId, deps.clock.now());
    return client;
  };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    const clock = new ManualClock(new Date());
    gateway = await liveGateway();
    deps = { connections: new DynamoConnectionRepository(db, tableName, clock), connectionSender: gateway.sender, clock };
    return () => gateway.stop();
  });

  it('sends a connection that has not authenticated the message, closes it and answers true', async () => {
    // Arrange
    const client = await connected();

    // Act
    const closed = await closeIfUnauthenticated(deps, client.connectionId, TIMED_OUT);

    // Assert
    expect(closed).toBe(true);
    expect(await client.closed).toBe(WS_CLOSE_CODES.closedByService);
    expect(client.messages).toEqual([TIMED_OUT]);
  });

  it('leaves an authenticated connection open, sends it nothing and answers false', async () => {
    // Arrange
    const client = await connected();
    await deps.connections.authenticate(client.connectionId, { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() }, 5);

    // Act
    const closed = await closeIfUnauthenticated(deps, client.connectionId, TIMED_OUT);

    // Assert
    expect(closed).toBe(false);
    expect(await deps.connectionSender.send(client.connectionId, '{"type":"pong"}')).toBe('sent');
    expect(client.messages).not.toContain(TIMED_OUT);
  });

  it('answers false for a connection no longer stored', async () => {
    // Arrange
    const client = await connected();
    await deps.connections.remove(client.connectionId);

    // Act
    const closed = await closeIfUnauthenticated(deps, client.connectionId, TIMED_OUT);

    // Assert
    expect(closed).toBe(false);
  });
});
