/**
 * Rebuilds the cloud search index from DynamoDB and S3: `npm run reindex` with TABLE_NAME, BUCKET_NAME,
 * OPENSEARCH_ENDPOINT and AWS_REGION set (the stack's outputs) and credentials allowed to read the table and
 * bucket and write the domain. Locally the runtime rebuilds its index by itself when DATA_DIR/search is missing.
 */
import { awsReindexDependencies } from '../shared/container/aws-search';
import { rebuildSearchIndex } from '../shared/domain/search/rebuild-search-index';

const deps = awsReindexDependencies();
const started = Date.now();
const count = await rebuildSearchIndex(deps, {
  onProgress: (indexed) => {
    if (indexed % 500 === 0) console.log(`${indexed} documents indexed`);
  },
});
console.log(`Rebuilt the search index: ${count} documents in ${((Date.now() - started) / 1000).toFixed(1)} s`);
