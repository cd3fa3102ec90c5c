// A read-only connection to the search index in a worker thread: it runs the statements it is sent, so that
// the shards of one query run on several cores (see sqlite-read-pool.ts). Plain JavaScript, so that a worker
// starts the same under tsx, vitest and node.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
// A larger page cache than SQLite's 2 MB: a ranking reads the same doclist pages query after query.
db.pragma('cache_size = -16384');
const statements = new Map();

parentPort.on('message', ({ id, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...params) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
