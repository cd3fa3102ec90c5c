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
    const rows = best(pairs, rank.limit).map(([rid, score]) => ({ rid, score }));
    parentPort.postMessage({ id, rows, sequences }, [sequences.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

/**
 * The `limit` rows of highest score, best first, without sorting them all (a common word matches most of a
 * workspace): a heap of the best so far, the lowest on top. Which of several rows with the score at the cut are
 * kept does not change a page: the ranking falls back to the general query when such a run reaches into it.
 * The twin of `best` in sqlite-search-ranking.ts.
 */
function best(rows, limit) {
  if (rows.length <= limit) return rows.sort((a, b) => b[1] - a[1]);
  const heap = rows.slice(0, limit);
  const down = (at) => {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let low = at;
      if (left < limit && heap[left][1] < heap[low][1]) low = left;
      if (right < limit && heap[right][1] < heap[low][1]) low = right;
      if (low === at) return;
      [heap[at], heap[low]] = [heap[low], heap[at]];
      at = low;
    }
  };
  for (let at = (limit >> 1) - 1; at >= 0; at--) down(at);
  for (let i = limit; i < rows.length; i++) {
    if (rows[i][1] > heap[0][1]) {
      heap[0] = rows[i];
      down(0);
    }
  }
  return heap.sort((a, b) => b[1] - a[1]);
}
