/**
 * Rebuilds the search index from the table and the bucket: `npm run reindex` for the local runtime's DATA_DIR
 * (the runtime stopped), `npm run reindex -- --target aws` for a deployment's OpenSearch index. See `--help`.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createDynamoDocumentClient } from '../shared/adapters/aws/clients';
import { createS3Client } from '../shared/adapters/aws/s3/client';
import { S3FileStore } from '../shared/adapters/aws/s3/file-store';
import { SqliteSearchIndex } from '../shared/adapters/local/sqlite-search-index';
import { awsIndexSources } from '../shared/container/kit/aws-search-index';
import { workspaceDirectory } from '../shared/container/kit/accounts';
import { indexSources } from '../shared/container/kit/workspace-stores';
import { systemClock } from '../shared/domain/clock';
import { rebuildDepsOf } from '../functions/indexer/deps';
import { rebuildSearchIndex, type RebuildDeps } from '../shared/domain/search/rebuild-search-index';
import { parseCommandLine, runCommand, type CommandSpec } from './support/cli';
import { withLocalData } from './support/local-data';
import { chooseTarget, commandSettings, TARGET_OPTIONS, TARGET_SETTINGS } from './support/target';

const spec = {
  name: 'reindex',
  usage: 'npm run reindex -- [--target local|aws] [--data-dir <path>]',
  summary: [
    'Rebuilds the search index from the table and the bucket: the index is cleared, then every document of every',
    'workspace is indexed again. Documents that change meanwhile keep their newer entry (writes are ordered by version).',
  ],
  options: TARGET_OPTIONS,
  settings: [
    {
      heading: 'Environment',
      entries: [
        ...TARGET_SETTINGS,
        { name: 'BUCKET_NAME', description: '--target aws: its BucketName output' },
        { name: 'OPENSEARCH_ENDPOINT', description: '--target aws: its OpenSearchEndpoint output' },
      ],
    },
  ],
  notes: [
    'Locally the runtime must be stopped: it is the only writer of its data and keeps the index open. A DATA_DIR a',
    'running process holds is refused; so is one the runtime never started on. The runtime also rebuilds its index',
    'by itself on start when DATA_DIR/search is missing.',
    "Against a deployment the credentials (AWS_PROFILE or the SDK's other sources) must allow reading the table and",
    'the bucket and writing the OpenSearch domain.',
  ],
} satisfies CommandSpec<typeof TARGET_OPTIONS>;

await runCommand(spec.name, async () => {
  const target = chooseTarget(parseCommandLine(spec));
  if (target.kind === 'aws') {
    const sources = awsIndexSources();
    return rebuild(rebuildDepsOf(sources, sources.index));
  }
  await withLocalData(target.dataDir, { files: true }, async (data) => {
    // DATA_DIR/search may have been deleted, as the runtime's own way to rebuild: the runtime makes it private.
    await mkdir(dirname(data.searchIndexPath), { recursive: true, mode: 0o700 });
    const index = new SqliteSearchIndex(data.searchIndexPath);
    try {
      const table = { db: createDynamoDocumentClient(data.dynamodb), name: data.tableName };
      const directory = workspaceDirectory(table, commandSettings(), systemClock);
      await rebuild(rebuildDepsOf(indexSources(table, systemClock, directory, new S3FileStore(createS3Client(data.s3!), data.bucketName), index), index));
      // As the runtime's own rebuild: one segment per full-text index, the file compacted.
      index.optimize();
    } finally {
      index.close();
    }
  });
});

async function rebuild(deps: RebuildDeps): Promise<void> {
  const started = Date.now();
  const count = await rebuildSearchIndex(deps, {
    onProgress: (indexed) => {
      if (indexed % 500 === 0) console.log(`${indexed} documents indexed`);
    },
  });
  console.log(`Rebuilt the search index: ${count} documents in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
