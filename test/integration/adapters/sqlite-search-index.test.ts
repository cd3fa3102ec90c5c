import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SqliteSearchIndex } from '../../../shared/adapters/local/sqlite-search-index';
import { describeSearchIndexContract } from '../../contracts/search-index.contract';

describeSearchIndexContract('SQLite FTS5 in memory', async () => {
  const index = new SqliteSearchIndex(':memory:');
  return { index, refresh: async () => undefined, dispose: async () => index.close() };
});

describeSearchIndexContract('SQLite FTS5 in a file (WAL)', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'search-index-'));
  const index = new SqliteSearchIndex(path.join(dir, 'search.sqlite'));
  return {
    index,
    refresh: async () => undefined,
    dispose: async () => {
      index.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
