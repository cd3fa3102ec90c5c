import * as z from '../../zod';
import { OpenSearchSearchIndex } from '../../adapters/aws/opensearch/search-index';
import { s3FileStore } from '../../adapters/aws/s3/file-store';
import { systemClock } from '../../domain/clock';
import { commonEnvSchema, envText, parseEnv } from './config';
import { workspaceDirectory } from './accounts';
import { awsTable } from './aws-table';
import { indexSources } from './workspace-stores';

/* The OpenSearch index: only the functions that search, keep the index in step or set it up bundle its client. */

export const searchEnvSchema = z.object({
  OPENSEARCH_ENDPOINT: z.optional(envText),
  AWS_REGION: z._default(envText, 'us-east-1'),
  BUCKET_NAME: z.optional(envText),
});

/** One OpenSearch client per function instance. */
let openSearchIndex: OpenSearchSearchIndex | undefined;

/**
 * The OpenSearch index behind the alias. Functions never create or migrate it: the deploy does, through the
 * search-index-setup custom resource, before it updates any function that reads or writes the index (a
 * function racing to create it would be refused, or would let OpenSearch create one with a default mapping).
 */
export function openSearch(endpoint: string, region: string): OpenSearchSearchIndex {
  openSearchIndex ??= OpenSearchSearchIndex.forDomain(endpoint, region);
  return openSearchIndex;
}

/** The OpenSearch index of the search endpoints (OPENSEARCH_ENDPOINT, AWS_REGION). */
export function awsSearchIndex(env: NodeJS.ProcessEnv = process.env): OpenSearchSearchIndex {
  const config = parseEnv(z.extend(searchEnvSchema, { OPENSEARCH_ENDPOINT: envText }), env);
  return openSearch(config.OPENSEARCH_ENDPOINT, config.AWS_REGION);
}

/**
 * What indexing reads in the cloud (the indexer, `npm run reindex`): each workspace's documents and labels over
 * the table, its part of the bucket (long texts) and its view of the OpenSearch index, and every workspace.
 */
export function awsIndexSources(env: NodeJS.ProcessEnv = process.env): ReturnType<typeof indexSources> & { index: OpenSearchSearchIndex } {
  const config = parseEnv(z.extend(searchEnvSchema, { OPENSEARCH_ENDPOINT: envText, BUCKET_NAME: envText }), env);
  const index = openSearch(config.OPENSEARCH_ENDPOINT, config.AWS_REGION);
  const table = awsTable(env);
  const directory = workspaceDirectory(table, parseEnv(commonEnvSchema, env), systemClock);
  return { ...indexSources(table, systemClock, directory, s3FileStore(config.BUCKET_NAME), index), index };
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
