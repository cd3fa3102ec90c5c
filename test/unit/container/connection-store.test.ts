import { bareContainerParts } from '../../support/container-parts';
import { describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../shared/adapters/aws/dynamodb/connection-repository';
import { buildAppContainer } from '../../../shared/container/build-app-container';
import { dynamoConnections } from '../../../shared/container/connection-store';

/* The whole container's connections over the table. Nothing here does I/O: the container talks to nothing until a request comes. */

const parts = bareContainerParts;

describe("the connections' store in the container", () => {
  it('gives the container the connections over the table when the function was given the store', () => {
    // Act
    const container = buildAppContainer(parts({ connectionStore: dynamoConnections }));

    // Assert
    expect(container.connections).toBeInstanceOf(DynamoConnectionRepository);
  });
});
