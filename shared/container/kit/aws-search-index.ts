import * as z from '../../zod';
import { OpenSearchSearchIndex } from '../../adapters/aws/opensearch/search-index';
import { envText, parseEnv } from '../config';

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
