import { bareContainerParts } from '../../support/container-parts';
import { describe, expect, it } from 'vitest';
import { buildAppContainer, type ContainerParts } from '../../../shared/container/build-app-container';
import { dynamoSourceStores } from '../../../shared/container/source-stores';
import { DynamoSourceRepository } from '../../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoSourceSchedule } from '../../../shared/adapters/aws/dynamodb/source-schedule';

/*
 * Only what manages, syncs and schedules sources (the sources, source-sync and source-scheduler functions, the
 * local runtime) passes the sources' stores to the container, so that no other Lambda bundle carries them.
 * Nothing here does I/O: the container talks to nothing until a request comes.
 */

const partsWith = (sourceStores?: ContainerParts['sourceStores']): ContainerParts =>
  bareContainerParts(sourceStores ? { sourceStores } : {});

describe("the sources' stores in the container", () => {
  it('gives each workspace its sources over the table when the function was given the stores', () => {
    // Arrange
    const container = buildAppContainer(partsWith(dynamoSourceStores));

    // Act
    const scope = container.forWorkspace('ws-1');

    // Assert
    expect(scope.sources).toBeInstanceOf(DynamoSourceRepository);
    expect(container.sourceSchedule).toBeInstanceOf(DynamoSourceSchedule);
  });
});
