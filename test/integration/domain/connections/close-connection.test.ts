import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { closeConnection } from '../../../../shared/domain/connections/close-connection';
import type { ConnectionRepository } from '../../../../shared/domain/connections/ports';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';

describe('closeConnection', () => {
  let connections: ConnectionRepository;
  const member = (userId: string) => ({ userId, workspaceId: crypto.randomUUID() });
  const opened = async () => {
    const id = crypto.randomUUID();
    await connections.open(id, new Date());
    return id;
  };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    connections = new DynamoConnectionRepository(db, tableName, new ManualClock(new Date()));
  });

  it('forgets the closed connection', async () => {
    // Arrange
    const id = await opened();
    await connections.authenticate(id, member(crypto.randomUUID()), 5);

    // Act
    await closeConnection({ connections }, id);

    // Assert
    expect(await connections.get(id)).toBeNull();
  });

  it("frees the connection's place in its user's limit", async () => {
    // Arrange
    const userId = crypto.randomUUID();
    const [first, second] = [await opened(), await opened()];
    const who = member(userId);
    await connections.authenticate(first, who, 1);

    // Act
    await closeConnection({ connections }, first);

    // Assert
    expect(await connections.authenticate(second, who, 1)).toBe('authenticated');
  });

  it('closes a connection it no longer knows without an error', async () => {
    // Arrange
    const id = await opened();
    await closeConnection({ connections }, id);

    // Act
    const again = closeConnection({ connections }, id);

    // Assert
    await expect(again).resolves.toBeUndefined();
  });
});
