import type Database from 'better-sqlite3';
import type { IndexEntry, SearchIndexListing } from '../../domain/search/ports';
import type { SqlValue } from './sqlite-search-query';
import { rowidRange } from './sqlite-search-schema';

/** SQLite's bound on the parameters of one statement, with room to spare. */
const IDS_PER_LOOKUP = 500;

/**
 * What one workspace's part of the SQLite index holds, for the reconciliation: its live entries in row id
 * order (its rows' range of the primary key: no sort, no extra index), the cursor being the last row id read.
 * Row ids never change, so a listing never skips or repeats one. `slot` is the workspace's (undefined: it has
 * nothing in the index).
 */
export function sqliteIndexListing(db: Database.Database, slot: number | undefined): SearchIndexListing {
  return {
    entries: async ({ cursor, limit }) => {
      if (slot === undefined) return { entries: [], cursor: null };
      const { first, last } = rowidRange(slot);
      const after = cursor ? Number(cursor) : first - 1;
      if (!Number.isSafeInteger(after)) throw new Error(`not a cursor of this listing: ${cursor}`);
      const rows = db
        .prepare<[number, number, number], { rid: number; id: string; version: number }>(
          'SELECT rid, id, version FROM docs WHERE rid BETWEEN ? AND ? AND deleted = 0 ORDER BY rid LIMIT ?',
        )
        .all(Math.max(after + 1, first), last, limit);
      return { entries: rows.map(({ id, version }) => ({ id, version })), cursor: rows.length === limit ? String(rows[rows.length - 1]!.rid) : null };
    },
    entriesOf: async (ids) => {
      if (slot === undefined) return [];
      const found: IndexEntry[] = [];
      for (let start = 0; start < ids.length; start += IDS_PER_LOOKUP) {
        const chunk = ids.slice(start, start + IDS_PER_LOOKUP);
        found.push(
          ...db
            .prepare<SqlValue[], IndexEntry>(`SELECT id, version FROM docs WHERE slot = ? AND deleted = 0 AND id IN (${chunk.map(() => '?').join(', ')})`)
            .all(slot, ...chunk),
        );
      }
      return found;
    },
  };
}
