import * as z from '../zod';
import { s3FileStore } from '../adapters/aws/s3/file-store';
import type { FollowChangesDeps } from '../domain/search/follow-changes';
import type { ReconcileDeps } from '../domain/search/reconcile-index';
import type { RebuildDeps } from '../domain/search/rebuild-search-index';
import type { AppContainer } from './app-container';
import { indexerDepsOf, rebuildDepsOf, reconcileDepsOf } from './consumer-deps';
import { awsAppContainer, tokenlessContainer } from './aws';
import { envText, parseEnv } from './config';
import { openSearch, searchEnvSchema } from './kit/aws-search-index';

/*
 * The OpenSearch part of the cloud composition root, apart from aws.ts so that only the functions that search
 * (search), keep the index in step (indexer, from the table's stream) or set it up (search-index-setup) bundle
 * the OpenSearch client.
 */

const indexerEnvSchema = z.extend(searchEnvSchema, {
  TABLE_NAME: envText,
  OPENSEARCH_ENDPOINT: envText,
  BUCKET_NAME: envText,
});

/**
 * The `indexer` function: as the consumer of the table's stream (`changes`) and as the scheduled reconciliation
 * (`reconcile`), each workspace's documents and labels, its part of the bucket (long texts) and its view of
 * the OpenSearch index; the reconciliation also lists the workspaces and what the index holds. No JWT key.
 */
export function awsIndexerDependencies(env: NodeJS.ProcessEnv = process.env): { changes: FollowChangesDeps; reconcile: ReconcileDeps } {
  const config = parseEnv(indexerEnvSchema, env);
  const index = openSearch(config.OPENSEARCH_ENDPOINT, config.AWS_REGION);
  const container = tokenlessContainer(config.TABLE_NAME, env, { search: index, files: s3FileStore(config.BUCKET_NAME) });
  return { changes: indexerDepsOf(container), reconcile: reconcileDepsOf(container, index) };
}

/** The search endpoints: the app container with the OpenSearch index (each workspace searches its view). */
export function awsSearchContainer(env: NodeJS.ProcessEnv = process.env): AppContainer {
  const config = parseEnv(z.extend(searchEnvSchema, { OPENSEARCH_ENDPOINT: envText }), env);
  return awsAppContainer(env, { search: openSearch(config.OPENSEARCH_ENDPOINT, config.AWS_REGION) });
}

/** What `npm run reindex` needs to rebuild the OpenSearch index from the table and the bucket. */
export function awsReindexDependencies(env: NodeJS.ProcessEnv = process.env): RebuildDeps {
  const config = parseEnv(
    z.object({ TABLE_NAME: envText, BUCKET_NAME: envText, OPENSEARCH_ENDPOINT: envText, AWS_REGION: envText }),
    env,
  );
  const index = openSearch(config.OPENSEARCH_ENDPOINT, config.AWS_REGION);
  return rebuildDepsOf(tokenlessContainer(config.TABLE_NAME, env, { search: index, files: s3FileStore(config.BUCKET_NAME) }), index);
}

/** What the deploy-time search-index-setup function needs: the index to migrate and the replicas to set. */
export function awsSearchIndexSetupDependencies(env: NodeJS.ProcessEnv = process.env) {
  const config = parseEnv(
    z.extend(searchEnvSchema, {
      OPENSEARCH_ENDPOINT: envText,
      SEARCH_INDEX_REPLICAS: z.coerce.number().check(z.int(), z.gte(0), z.lte(5)),
    }),
    env,
  );
  const index = openSearch(config.OPENSEARCH_ENDPOINT, config.AWS_REGION);
  return {
    migrate: () => index.migrate(),
    setReplicas: (replicas: number) => index.setReplicas(replicas),
    replicas: config.SEARCH_INDEX_REPLICAS,
  };
}
