import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';

/** What the deploy-time index setup needs: the migration of the search index and its replica count. */
export interface SearchIndexSetupDeps {
  /** Creates the versioned index and its alias, or moves the alias to a new mapping; says what it did. */
  migrate: () => Promise<unknown>;
  /** Sets the replica count of the index behind the alias (a dynamic setting: no reindex). */
  setReplicas: (replicas: number) => Promise<void>;
  /** Replicas the deployment asks for: 0 on a single-node domain, 1 or more on a multi-AZ one. */
  replicas: number;
}

/** Physical id of the custom resource: one search index per stack, whatever its version. */
export const SEARCH_INDEX_RESOURCE_ID = 'search-index';

/**
 * Deploy-time custom resource that brings the OpenSearch index to the mapping the code expects, before any
 * function that reads or writes it is deployed: the index is created (or migrated) by the deploy, never by
 * whichever request comes first. Create and Update migrate, then apply the replica count; Delete keeps the
 * index, which is data (and can be rebuilt from the table and the bucket).
 */
export const createSearchIndexSetupHandler =
  (deps: SearchIndexSetupDeps) =>
  async (event: CloudFormationCustomResourceEvent): Promise<{ PhysicalResourceId: string }> => {
    if (event.RequestType === 'Delete') return { PhysicalResourceId: SEARCH_INDEX_RESOURCE_ID };
    const outcome = await deps.migrate();
    await deps.setReplicas(deps.replicas);
    logger.info('search index ready', { outcome, replicas: deps.replicas });
    return { PhysicalResourceId: SEARCH_INDEX_RESOURCE_ID };
  };
