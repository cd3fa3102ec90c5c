import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoErasureRepository } from '../../../../shared/adapters/aws/dynamodb/erasure-repository';
import { erasedWorkspaces } from '../../../../shared/domain/erasure/erased-workspaces';
import { NO_COUNTS } from '../../../../shared/domain/erasure/erasure';
import type { ErasureRepository } from '../../../../shared/domain/erasure/ports';
import { freshTable } from '../../../support/aws-resources';

describe('erasedWorkspaces', () => {
  let erasures: DynamoErasureRepository;

  const requestErasure = (workspaceId: string) =>
    erasures.start({
      workspace_id: workspaceId,
      workspace_name: 'Acme',
      requested_by: { user_id: crypto.randomUUID(), operator: false },
      requested_at: new Date().toISOString(),
      status: 'erasing',
      steps_done: [],
      counts: NO_COUNTS,
    });
  /** The stored records, with the number of reads made of them. */
  const counted = () => {
    const reads = { count: 0 };
    const find: ErasureRepository['find'] = async (workspaceId) => {
      reads.count++;
      return erasures.find(workspaceId);
    };
    return { reads, find };
  };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    erasures = new DynamoErasureRepository(db, tableName);
  });

  it('answers false for a workspace whose deletion was never requested', async () => {
    // Arrange
    const isErased = erasedWorkspaces(erasures);

    // Act
    const erased = await isErased(crypto.randomUUID());

    // Assert
    expect(erased).toBe(false);
  });

  it('answers true for a workspace whose deletion was requested, before its erasure completed', async () => {
    // Arrange
    const workspaceId = crypto.randomUUID();
    await requestErasure(workspaceId);
    const isErased = erasedWorkspaces(erasures);

    // Act
    const erased = await isErased(workspaceId);

    // Assert
    expect(erased).toBe(true);
  });

  it('sees a deletion requested after the workspace was found not erased', async () => {
    // Arrange
    const workspaceId = crypto.randomUUID();
    const isErased = erasedWorkspaces(erasures);
    await isErased(workspaceId);
    await requestErasure(workspaceId);

    // Act
    const erased = await isErased(workspaceId);

    // Assert
    expect(erased).toBe(true);
  });

  it('remembers a workspace found erased without reading its record again', async () => {
    // Arrange
    const workspaceId = crypto.randomUUID();
    await requestErasure(workspaceId);
    const { reads, find } = counted();
    const isErased = erasedWorkspaces({ find });
    await isErased(workspaceId);

    // Act
    const again = [await isErased(workspaceId), await isErased(workspaceId)];

    // Assert
    expect(again).toEqual([true, true]);
    expect(reads.count).toBe(1);
  });
});
