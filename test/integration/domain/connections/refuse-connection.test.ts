import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE_CODES } from '../../../../shared/domain/connections/ports';
import { refuseConnection } from '../../../../shared/domain/connections/refuse-connection';
import { liveGateway, type LiveGateway } from '../../../support/live-sockets';

const REFUSAL = JSON.stringify({ type: 'error', data: { code: 'UNAUTHORIZED', message: 'Invalid token', details: {} } });

describe('refuseConnection through the local gateway', () => {
  let gateway: LiveGateway;

  beforeAll(async () => {
    gateway = await liveGateway();
  });

  afterAll(() => gateway.stop());

  it('sends the last message, then closes the connection as the service', async () => {
    // Arrange
    const client = await gateway.connect();

    // Act
    await refuseConnection({ connectionSender: gateway.sender }, client.connectionId, REFUSAL);

    // Assert
    expect(await client.closed).toBe(WS_CLOSE_CODES.closedByService);
    expect(client.messages).toEqual([REFUSAL]);
  });

  it('leaves the other connections open', async () => {
    // Arrange
    const [refused, other] = [await gateway.connect(), await gateway.connect()];

    // Act
    await refuseConnection({ connectionSender: gateway.sender }, refused.connectionId, REFUSAL);

    // Assert
    await refused.closed;
    expect(await gateway.sender.send(other.connectionId, '{}')).toBe('sent');
  });

  it('leaves a connection that is already gone alone, without an error', async () => {
    // Arrange
    const client = await gateway.connect();
    client.socket.close();
    await client.closed;

    // Act
    const refused = refuseConnection({ connectionSender: gateway.sender }, client.connectionId, REFUSAL);

    // Assert
    await expect(refused).resolves.toBeUndefined();
  });
});
