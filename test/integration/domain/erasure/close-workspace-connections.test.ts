import { ApiGatewayManagementApiClient, DeleteConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiGatewayConnectionSender } from '../../../../shared/adapters/aws/apigateway/connection-sender';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import type { ConnectionRepository } from '../../../../shared/domain/connections/ports';
import { workspaceConnectionCloser } from '../../../../shared/domain/erasure/close-workspace-connections';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';
import { liveGateway, type LiveClient, type LiveGateway } from '../../../support/live-sockets';

describe('workspaceConnectionCloser', () => {
  let connections: ConnectionRepository;
  let gateway: LiveGateway;

  /** A live client authenticated in `workspaceId`. */
  const member = async (workspaceId: string): Promise<LiveClient> => {
    const client = await gateway.connect();
    await connections.open(client.connectionId, new Date());
    await connections.authenticate(client.connectionId, { userId: crypto.randomUUID(), workspaceId }, 5);
    return client;
  };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    connections = new DynamoConnectionRepository(db, tableName, new ManualClock(new Date()));
    gateway = await liveGateway();
    return () => gateway.stop();
  });

  it("closes every authenticated connection of the workspace and answers how many", async () => {
    // Arrange
    const workspaceId = crypto.randomUUID();
    const clients = [await member(workspaceId), await member(workspaceId)];

    // Act
    const closed = await workspaceConnectionCloser(connections, gateway.sender).closeAll(workspaceId);

    // Assert
    expect(closed).toBe(2);
    expect(await Promise.all(clients.map((client) => client.closed))).toEqual([1000, 1000]);
  });

  it("leaves the connections of other workspaces open", async () => {
    // Arrange
    const [erased, kept] = [crypto.randomUUID(), crypto.randomUUID()];
    await member(erased);
    const other = await member(kept);

    // Act
    await workspaceConnectionCloser(connections, gateway.sender).closeAll(erased);

    // Assert
    expect(await gateway.sender.send(other.connectionId, '{}')).toBe('sent');
  });

  it('closes the others when closing one fails at the gateway, and still counts it', async () => {
    // Arrange: @connections refuses the first DeleteConnection with a throttle.
    const workspaceId = crypto.randomUUID();
    const [first, second] = [await member(workspaceId), await member(workspaceId)];
    const api = mockClient(ApiGatewayManagementApiClient);
    api.on(DeleteConnectionCommand, { ConnectionId: first.connectionId }).rejects(Object.assign(new Error('Rate exceeded'), { name: 'LimitExceededException' }));
    api.on(DeleteConnectionCommand, { ConnectionId: second.connectionId }).resolves({});
    const sender = new ApiGatewayConnectionSender(() => new ApiGatewayManagementApiClient({ region: 'us-east-1' }));

    // Act
    const closed = await workspaceConnectionCloser(connections, sender).closeAll(workspaceId).finally(() => api.restore());

    // Assert
    expect(closed).toBe(2);
    expect(api.commandCalls(DeleteConnectionCommand).map((call) => call.args[0].input.ConnectionId).sort()).toEqual([first.connectionId, second.connectionId].sort());
  });

  it('answers 0 for a workspace without connections', async () => {
    // Arrange
    const workspaceId = crypto.randomUUID();

    // Act
    const closed = await workspaceConnectionCloser(connections, gateway.sender).closeAll(workspaceId);

    // Assert
    expect(closed).toBe(0);
  });
});
