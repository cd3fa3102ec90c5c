/** The storage layout of the SQLite search index and the rows it writes for a document. */
import { inflateRawSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import type { IndexedDocument } from '../../domain/search/ports';
import { BOOTSTRAP_WORKSPACE_ID } from '../../domain/workspaces/workspace';
import { stripMarkers } from '../../domain/search/text';
import type { FacetEntry } from './search-facet-columns';

/** The indexed text columns, in table order, with their BM25 weights (a title hit counts ten content hits). */
export const COLUMNS = ['title', 'filename', 'content', 'labels', 'metadata'] as const;
export type Column = (typeof COLUMNS)[number];
export const WEIGHTS = '10.0, 5.0, 1.0, 3.0, 2.0';

/**
 * Row ids of `docs` (and of both full-text tables) are `slot * ROWS_PER_WORKSPACE + sequence`: each workspace
 * owns one contiguous range, so FTS5 bounds a MATCH, its BM25 sort and the match-set scan to that range
 * (`rowid BETWEEN` is pushed into FTS5) instead of reading every workspace's matches and filtering.
 * 2^32 rows per workspace, 2^21 workspaces: row ids stay exact JavaScript numbers (below 2^53).
 */
export const ROWS_PER_WORKSPACE = 2 ** 32;
const MAX_SLOT = 2 ** 21 - 1;

/** The row ids a workspace's slot owns (sequence 0 is never used). */
export function rowidRange(slot: number): { base: number; first: number; last: number } {
  if (!Number.isInteger(slot) || slot < 1 || slot > MAX_SLOT) throw new Error(`search index workspace slot out of range: ${slot}`);
  const base = slot * ROWS_PER_WORKSPACE;
  return { base, first: base + 1, last: base + ROWS_PER_WORKSPACE - 1 };
}

/**
 * `workspaces` numbers the workspaces (their slot). The text columns live in `docs` (the content deflated: it
 * is most of the bytes); each workspace's full-text tables (see {@link workspaceTables}) read them through the
 * `fts_source` view, which inflates the content with a function every connection of this adapter registers. The
 * index thus holds the text once, compressed. `docs.slot` repeats the row id's slot for the listing's index.
 * `words` is each workspace's vocabulary: every distinct token (lower case, without diacritics) of its text, for
 * fuzzy queries, prefixes and substrings, keyed by length (see {@link lengthKey}).
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS workspaces (slot INTEGER PRIMARY KEY, workspace_id TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS docs (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  slot INTEGER NOT NULL,
  version INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL DEFAULT '',
  filename TEXT NOT NULL DEFAULT '',
  content_z BLOB,
  labels_text TEXT NOT NULL DEFAULT '',
  metadata_text TEXT NOT NULL DEFAULT '',
  mime_type TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT '',
  ocr_confidence REAL,
  size INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL DEFAULT '',
  label_ids TEXT NOT NULL DEFAULT '[]',
  label_names TEXT NOT NULL DEFAULT '[]',
  metadata_values TEXT NOT NULL DEFAULT '[]'
);
CREATE VIEW IF NOT EXISTS fts_source AS
  SELECT rid, title, filename, inflate_text(content_z) AS content, labels_text AS labels, metadata_text AS metadata FROM docs;
CREATE TABLE IF NOT EXISTS words (
  slot INTEGER NOT NULL, len INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (slot, len, word)
) WITHOUT ROWID;
`;

/** The names of one workspace's full-text tables. */
export interface WorkspaceTables {
  /** Words by stem (porter), with positions: words, phrases, prefixes, BM25, highlights. */
  fts: string;
  /** Tokens as written (no stemming), by column without positions: the documents holding a token, for substrings. */
  raw: string;
  /** Trigrams of the workspace's distinct tokens (not of its text): the tokens holding a substring. */
  tok: string;
  /** Adjacent common words as one token each (see sqlite-search-pairs.ts): phrases of common words. */
  pairs: string;
}

/**
 * Each workspace has full-text tables of its own, created with its first document: a search reads, ranks (BM25's
 * statistics are the workspace's) and counts only its own workspace's doclists, whatever the others hold.
 */
export function workspaceTables(slot: number): WorkspaceTables {
  rowidRange(slot);
  return { fts: `fts_${slot}`, raw: `raw_${slot}`, tok: `tok_${slot}`, pairs: `pairs_${slot}` };
}

/** Every full-text table of a workspace. */
export const workspaceTablesSql = (slot: number): string => textTablesSql(slot) + pairsTableSql(slot);

/**
 * The pair table (see sqlite-search-pairs.ts): contentless (its rows are written by the index, never read back as
 * text; a row is taken out by being told its pair text again, which the text in `docs` gives), with positions,
 * and the same five columns as `fts_N`. Not `contentless_delete`: its deletes leave the table's total length as
 * it was, and BM25's average length must stay the one `fts_N` has.
 */
export const pairsTableSql = (slot: number): string => `
CREATE VIRTUAL TABLE IF NOT EXISTS ${workspaceTables(slot).pairs} USING fts5(
  title, filename, content, labels, metadata,
  content = '', tokenize = 'ascii'
);`;

/** The tables of a workspace's text: by stem, unstemmed, and the trigrams of its tokens. */
function textTablesSql(slot: number): string {
  const { fts, raw, tok } = workspaceTables(slot);
  return `
CREATE VIRTUAL TABLE IF NOT EXISTS ${fts} USING fts5(
  title, filename, content, labels, metadata,
  content = 'fts_source', content_rowid = 'rid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS ${raw} USING fts5(
  title, filename, content, labels, metadata,
  content = 'fts_source', content_rowid = 'rid', detail = 'column',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS ${tok} USING fts5(token, tokenize = 'trigram remove_diacritics 1');
`;
}

/** Drops one workspace's full-text tables (the index is cleared). */
export const dropWorkspaceTablesSql = (slot: number): string =>
  Object.values(workspaceTables(slot))
    .map((table) => `DROP TABLE IF EXISTS ${table};`)
    .join('\n');

/**
 * Created after the adoption of an older file (its tables must be replaced first). A listing reads one
 * workspace's live rows, newest first by default: this index answers its count and its default order without
 * a table scan.
 */
export const INDEXES = `
CREATE INDEX IF NOT EXISTS docs_slot ON docs (slot, deleted, created_at);
`;

const hasColumn = (db: Database.Database, table: string, column: string): boolean =>
  (db.pragma(`table_info(${table})`) as { name: string }[]).some((info) => info.name === column);

const DOC_COLUMNS = `id, version, deleted, title, filename, content_z, labels_text, metadata_text, mime_type, status, ocr_confidence, size,
  created_at, updated_at, label_ids, label_names, metadata_values`;

/** The live rows of a row id range, as the full-text tables index them. */
export const LIVE_TEXT = `SELECT rid, title, filename, inflate_text(content_z) AS content, labels_text AS labels, metadata_text AS metadata
  FROM docs WHERE rid BETWEEN ? AND ? AND deleted = 0 ORDER BY rid`;

const tableExists = (db: Database.Database, name: string): boolean =>
  db.prepare<[string], number>("SELECT count(*) FROM sqlite_master WHERE name = ?").pluck().get(name) === 1;

/**
 * Adopts a file whose row ids are not ranged by workspace: one written with a workspace column per row (the
 * version before the ranges), or one written before workspaces existed (its rows become the bootstrap
 * workspace's). Each workspace gets a slot (in the order of its first row) and its rows new row ids in the
 * slot's range, in their old order; the full-text tables are dropped (FTS5 cannot move a row id) and rebuilt by
 * {@link adoptSharedTables}. One transaction, so a crash leaves the old file as it was. Runs after SCHEMA, which
 * created `workspaces` beside the old tables.
 */
export function adoptUnrangedFile(db: Database.Database): void {
  if (hasColumn(db, 'docs', 'slot')) return;
  const bootstrap = `'${BOOTSTRAP_WORKSPACE_ID}'`;
  const docsWorkspace = hasColumn(db, 'docs', 'workspace_id') ? 'o.workspace_id' : bootstrap;
  const wordsWorkspace = hasColumn(db, 'words', 'workspace_id') ? 'o.workspace_id' : bootstrap;
  db.transaction(() => {
    db.exec(`
      INSERT OR IGNORE INTO workspaces (workspace_id)
        SELECT workspace_id FROM (SELECT ${docsWorkspace} AS workspace_id, min(o.rid) AS first FROM docs AS o GROUP BY 1) ORDER BY first;
      INSERT OR IGNORE INTO workspaces (workspace_id) SELECT DISTINCT ${wordsWorkspace} FROM words AS o;
      DROP VIEW fts_source;
      DROP TABLE IF EXISTS fts;
      DROP TABLE IF EXISTS tri;
      ALTER TABLE docs RENAME TO docs_unranged;
      DROP TABLE words;
    `);
    db.exec(SCHEMA);
    db.exec(`
      INSERT INTO docs (rid, slot, ${DOC_COLUMNS})
        SELECT w.slot * ${ROWS_PER_WORKSPACE} + row_number() OVER (PARTITION BY w.slot ORDER BY o.rid), w.slot, ${DOC_COLUMNS}
        FROM docs_unranged AS o JOIN workspaces AS w ON w.workspace_id = ${docsWorkspace}
        ORDER BY 1;
      DROP TABLE docs_unranged;
    `);
  })();
}

/**
 * Adopts a file whose workspaces share one pair of full-text tables (`fts`, by stem, and `tri`, every trigram
 * of the text), or one just renumbered by {@link adoptUnrangedFile}: each workspace with documents gets its own
 * tables (see {@link workspaceTables}), filled from the text in `docs`, and its vocabulary is rebuilt with every
 * token (the old one held only words of 4 to 40 letters). A workspace's tables are built in one transaction, so
 * a crash leaves the rest to the next start; the shared tables go in the last one, and a VACUUM then gives
 * their pages back.
 */
export function adoptSharedTables(db: Database.Database): void {
  const shared = tableExists(db, 'fts') || tableExists(db, 'tri');
  const slots = db.prepare<[], number>('SELECT DISTINCT slot FROM docs WHERE deleted = 0 ORDER BY slot').pluck().all();
  const missing = slots.filter((slot) => !tableExists(db, workspaceTables(slot).fts));
  if (!shared && !missing.length) return;
  for (const slot of missing) {
    db.transaction(() => {
      const { fts, raw, tok } = workspaceTables(slot);
      // The pair table is built by adoptPairTables, which runs next.
      db.exec(textTablesSql(slot));
      const { first, last } = rowidRange(slot);
      for (const table of [fts, raw]) {
        db.prepare(`INSERT INTO ${table} (rowid, title, filename, content, labels, metadata) ${LIVE_TEXT}`).run(first, last);
      }
      db.prepare('DELETE FROM words WHERE slot = ?').run(slot);
      const insertWord = db.prepare<[number, number, string]>('INSERT OR IGNORE INTO words (slot, len, word) VALUES (?, ?, ?)');
      const insertToken = db.prepare<[string]>(`INSERT INTO ${tok} (token) VALUES (?)`);
      const seen = new Set<string>();
      // A page at a time: the connection cannot write while it steps through a read.
      const page = db.prepare<[number, number], { rid: number } & Record<Column, string>>(`${LIVE_TEXT} LIMIT 1000`);
      for (let rows = page.all(first, last); rows.length; rows = page.all(rows[rows.length - 1]!.rid + 1, last)) {
        for (const text of rows) {
          for (const token of tokens(COLUMNS.map((column) => text[column]).join(' '))) {
            if (seen.has(token)) continue;
            seen.add(token);
            insertWord.run(slot, lengthKey(token), token);
            insertToken.run(token);
          }
        }
      }
    })();
  }
  if (shared) {
    db.exec('DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS tri;');
    // The old tables' pages are free now: without this the file would keep them.
    db.exec('VACUUM');
  }
}

/** Pages of 32 KB hold many 2 KB rows each (4 KB pages would hold one, half empty). Set before the first table. */
export const PAGE_SIZE = 32_768;
/**
 * The page cache of the writing connection, in KiB (SQLite's default is 2 MB): a batch's FTS5 segments and the
 * b-tree pages it touches stay in memory instead of being read back from the file.
 */
export const CACHE_KIB = 65_536;

export const inflateText = (blob: Buffer | null): string => (blob ? inflateRawSync(blob).toString('utf8') : '');

/** The text of each column as the index stores it; the markers of highlights are taken out of it first. */
export function columnsOf(document: IndexedDocument): Record<Column, string> {
  return {
    title: stripMarkers(document.title),
    filename: stripMarkers(document.filename),
    content: stripMarkers(document.content),
    labels: stripMarkers(document.labels.map((label) => label.name).join('\n')),
    metadata: stripMarkers(metadataValues(document).join('\n')),
  };
}

export const metadataValues = (document: IndexedDocument): string[] =>
  Object.values(document.metadata)
    .filter((value) => value !== null)
    .map(String);

/** Tokens longer than this are not in the vocabulary (nor found by a substring of theirs). */
export const MAX_TOKEN_LENGTH = 64;

/** The vocabulary's tokens of a text: lower case, without diacritics, letters and digits, up to MAX_TOKEN_LENGTH. */
/** Lower case without diacritics; ASCII text (most of it) skips the Unicode decomposition. */
export const foldText = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  (/[^\x00-\x7f]/.test(text) ? text.normalize('NFKD').replace(/\p{M}/gu, '') : text).toLowerCase();

/**
 * The `len` of a token in `words`: its length, negated for a token without a letter (a number), so that a fuzzy
 * query's range of lengths reads words only, not the many numbers of the same length.
 */
export const lengthKey = (token: string): number => (/\p{L}/u.test(token) ? token.length : -token.length);

export function tokens(text: string): string[] {
  const found = foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  return found.filter((token) => token.length <= MAX_TOKEN_LENGTH);
}

/** What a committed write changes in the in-memory facet columns: the row's slot and sequence, its entry (null: gone). */
export type FacetChange = { slot: number; sequence: number; entry: FacetEntry | null };

export function facetEntry(row: { mime_type: string; status: string; ocr_confidence: number | null; created_at: string; label_ids: string }): FacetEntry {
  return {
    mimeType: row.mime_type,
    status: row.status,
    ocrConfidence: row.ocr_confidence,
    createdAt: row.created_at,
    labelIds: JSON.parse(row.label_ids) as string[],
  };
}

/** A document's row in `docs`: its range slot, its version and whether it is a tombstone. */
export interface DocRow {
  rid: number;
  slot: number;
  version: number;
  deleted: number;
}

/** The statements the index's writes run, prepared once per connection. */
export function writeStatements(db: Database.Database) {
return {
    current: db.prepare<[string], DocRow>('SELECT rid, slot, version, deleted FROM docs WHERE id = ?'),
    slotOf: db.prepare<[string], number>('SELECT slot FROM workspaces WHERE workspace_id = ?').pluck(),
    addWorkspace: db.prepare<[string]>('INSERT INTO workspaces (workspace_id) VALUES (?)'),
    maxRid: db.prepare<[number, number], number | null>('SELECT max(rid) FROM docs WHERE rid BETWEEN ? AND ?').pluck(),
    insertDoc: db.prepare(
      `INSERT INTO docs (rid, id, slot, version, deleted, title, filename, content_z, labels_text, metadata_text, mime_type, status, ocr_confidence, size,
         created_at, updated_at, label_ids, label_names, metadata_values)
       VALUES (@rid, @id, @slot, @version, 0, @title, @filename, @content_z, @labels_text, @metadata_text, @mime_type, @status, @ocr_confidence, @size,
         @created_at, @updated_at, @label_ids, @label_names, @metadata_values)`,
    ),
    updateDoc: db.prepare(
      `UPDATE docs SET version = @version, deleted = 0, title = @title, filename = @filename, content_z = @content_z, labels_text = @labels_text,
         metadata_text = @metadata_text, mime_type = @mime_type, status = @status, ocr_confidence = @ocr_confidence, size = @size,
         created_at = @created_at, updated_at = @updated_at, label_ids = @label_ids, label_names = @label_names, metadata_values = @metadata_values
       WHERE rid = @rid`,
    ),
    insertTombstone: db.prepare<[number, string, number, number]>('INSERT INTO docs (rid, id, slot, version, deleted) VALUES (?, ?, ?, ?, 1)'),
    tombstone: db.prepare<[number, number]>(
      `UPDATE docs SET version = ?, deleted = 1, title = '', filename = '', content_z = NULL, labels_text = '', metadata_text = '', label_ids = '[]',
         label_names = '[]', metadata_values = '[]' WHERE rid = ?`,
    ),
    indexed: db.prepare<[number], Record<Column, string>>('SELECT title, filename, content, labels, metadata FROM fts_source WHERE rid = ?'),
  };
}

/** The statements that write one workspace's full-text tables, prepared once per connection and workspace. */
export function workspaceWriteStatements(db: Database.Database, slot: number) {
  const { fts, raw, tok, pairs } = workspaceTables(slot);
  const insert = (table: string) => db.prepare(`INSERT INTO ${table} (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, ?, ?)`);
  const remove = (table: string) =>
    db.prepare(`INSERT INTO ${table} (${table}, rowid, title, filename, content, labels, metadata) VALUES ('delete', ?, ?, ?, ?, ?, ?)`);
  return {
    insertFts: insert(fts),
    deleteFts: remove(fts),
    insertRaw: insert(raw),
    deleteRaw: remove(raw),
    insertToken: db.prepare<[string]>(`INSERT INTO ${tok} (token) VALUES (?)`),
    insertPairs: insert(pairs),
    deletePairs: remove(pairs),
  };
}
