// A read-only connection to the search index in a worker thread: it runs the statements it is sent, so that
// the shards of one query run on several cores (see sqlite-read-pool.ts). Plain JavaScript, so that a worker
// starts the same under tsx, vitest and node.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
// A larger page cache than SQLite's 2 MB: a ranking reads the same doclist pages query after query.
db.pragma('cache_size = -16384');
const statements = new Map();

/**
 * A plain message runs its statement and answers its rows. A `rank` message runs a statement of (rowid, score)
 * pairs and answers the `rank.limit` best (score descending) and every row id less `rank.base` (a transferred
 * Uint32Array): one pass gives both a part's ranking and its part of the match set.
 */
parentPort.on('message', ({ id, sql, params, rank }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    if (!rank) {
      parentPort.postMessage({ id, rows: statement.all(...params) });
      return;
    }
    const pairs = statement.raw().all(...params);
    const sequences = new Uint32Array(pairs.length);
    for (let i = 0; i < pairs.length; i++) sequences[i] = pairs[i][0] - rank.base;
    const rows = pairs
      .sort((a, b) => b[1] - a[1])
      .slice(0, rank.limit)
      .map(([rid, score]) => ({ rid, score }));
    parentPort.postMessage({ id, rows, sequences }, [sequences.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
