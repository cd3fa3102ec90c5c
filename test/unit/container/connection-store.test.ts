import { bareContainerParts } from '../../support/container-parts';
import { describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../shared/adapters/aws/dynamodb/connection-repository';
import { buildAppContainer } from '../../../shared/container/build-app-container';
import { dynamoConnections } from '../../../shared/container/connection-store';
import type { ConnectionSender } from '../../../shared/domain/connections/ports';

/*
 * The HTTP functions (their sessions end or move), the events consumer and the local runtime pass the
 * connections' store to the container; the other workers do not, so that their bundles do not carry it.
 * Nothing here does I/O: the container talks to nothing until a request comes.
 */

const parts = bareContainerParts;

const sender: ConnectionSender = { send: async () => 'sent', close: async () => undefined };

describe("the connections' store in the container", () => {
  it('gives the container the connections over the table when the function was given the store', () => {
    // Act
    const container = buildAppContainer(parts({ connectionStore: dynamoConnections }));

    // Assert
    expect(container.connections).toBeInstanceOf(DynamoConnectionRepository);
  });

  it('answers a use case that reaches for connections in a function without the store with an error that says so', () => {
    // Arrange
    const container = buildAppContainer(parts());

    // Act
    const listing = () => container.connections.listAuthenticated('all');

    // Assert
    expect(listing).toThrow('this function has no connection repository');
  });

  it('refuses to build a container that pushes to connections without their store', () => {
    // Act
    const build = () => buildAppContainer(parts({ connectionSender: sender }));

    // Assert
    expect(build).toThrow('needs their store (connectionStore)');
  });
});

describe('the token service in the container', () => {
  it('answers a use case that issues a token in a function given no token key with an error that says so', () => {
    // Arrange
    const container = buildAppContainer(parts());

    // Act
    const issuing = () => container.tokens.issue({ userId: 'u-1', role: 'viewer', tokenVersion: 0 });

    // Assert
    expect(issuing).toThrow('this function has no token key');
  });
});
