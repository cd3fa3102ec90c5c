import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createSearchIndexSetupHandler, SEARCH_INDEX_RESOURCE_ID, type SearchIndexSetupDeps } from '../../../../functions/search-index-setup/handler';

/** Records what the handler asked of the index, in order. */
function recordingDeps(replicas: number): { deps: SearchIndexSetupDeps; calls: string[] } {
  const calls: string[] = [];
  const deps: SearchIndexSetupDeps = {
    migrate: async () => {
      calls.push('migrate');
      return 'created';
    },
    setReplicas: async (count) => {
      calls.push(`replicas ${count}`);
    },
    replicas,
  };
  return { deps, calls };
}

const eventOf = (requestType: 'Create' | 'Update' | 'Delete'): CloudFormationCustomResourceEvent =>
  ({
    RequestType: requestType,
    ServiceToken: 'arn:aws:lambda:eu-west-1:123456789012:function:provider',
    ResponseURL: 'https://cloudformation.example/response',
    StackId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/DocService-Api/1',
    RequestId: 'r1',
    LogicalResourceId: 'SearchIndexSetup',
    ResourceType: 'Custom::SearchIndexSetup',
    ResourceProperties: { ServiceToken: 'x', IndexVersion: '1' },
    ...(requestType === 'Create' ? {} : { PhysicalResourceId: SEARCH_INDEX_RESOURCE_ID, OldResourceProperties: {} }),
  }) as CloudFormationCustomResourceEvent;

describe('the search index setup custom resource', () => {
  it.each(['Create', 'Update'] as const)('migrates the index, then sets its replicas, on %s', async (requestType) => {
    // Arrange
    const { deps, calls } = recordingDeps(1);

    // Act
    const result = await createSearchIndexSetupHandler(deps)(eventOf(requestType));

    // Assert
    expect(calls).toEqual(['migrate', 'replicas 1']);
    expect(result).toEqual({ PhysicalResourceId: SEARCH_INDEX_RESOURCE_ID });
  });

  it('keeps the index when the stack is deleted', async () => {
    // Arrange
    const { deps, calls } = recordingDeps(0);

    // Act
    const result = await createSearchIndexSetupHandler(deps)(eventOf('Delete'));

    // Assert
    expect(calls).toEqual([]);
    expect(result).toEqual({ PhysicalResourceId: SEARCH_INDEX_RESOURCE_ID });
  });

  it('fails the deploy when the migration fails, before touching the replicas', async () => {
    // Arrange
    const { deps, calls } = recordingDeps(1);
    deps.migrate = () => Promise.reject(new Error('403 Forbidden'));

    // Act
    const run = createSearchIndexSetupHandler(deps)(eventOf('Create'));

    // Assert
    await expect(run).rejects.toThrow('403 Forbidden');
    expect(calls).toEqual([]);
  });
});
