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
 * is most of the bytes), and `fts` is an external-content table reading them through the `fts_source` view,
 * which inflates the content with a function every connection of this adapter registers. The index thus holds
 * the text once, compressed. `docs.slot` repeats the row id's slot for the listing's index.
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
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
  title, filename, content, labels, metadata,
  content = 'fts_source', content_rowid = 'rid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS tri USING fts5(
  title, filename, content, labels, metadata,
  tokenize = 'trigram remove_diacritics 1', content = '', contentless_delete = 1
);
CREATE TABLE IF NOT EXISTS words (
  slot INTEGER NOT NULL, len INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (slot, len, word)
) WITHOUT ROWID;
`;

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

/**
 * Adopts a file whose row ids are not ranged by workspace: one written with a workspace column per row (the
 * version before the ranges), or one written before workspaces existed (its rows become the bootstrap
 * workspace's). Each workspace gets a slot (in the order of its first row) and its rows new row ids in the
 * slot's range, in their old order; both full-text tables are rebuilt from the text in `docs` (FTS5 cannot move
 * a row id) and the fuzzy vocabulary is keyed by slot. It re-indexes the whole file once (about as long as a
 * rebuild in batches) in one transaction, so a crash leaves the old file as it was; a VACUUM then gives the old
 * tables' pages back. Runs after SCHEMA, which created `workspaces` beside the old tables.
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
      DROP TABLE fts;
      DROP TABLE tri;
      ALTER TABLE docs RENAME TO docs_unranged;
      ALTER TABLE words RENAME TO words_unranged;
    `);
    db.exec(SCHEMA);
    db.exec(`
      INSERT INTO docs (rid, slot, ${DOC_COLUMNS})
        SELECT w.slot * ${ROWS_PER_WORKSPACE} + row_number() OVER (PARTITION BY w.slot ORDER BY o.rid), w.slot, ${DOC_COLUMNS}
        FROM docs_unranged AS o JOIN workspaces AS w ON w.workspace_id = ${docsWorkspace}
        ORDER BY 1;
      INSERT INTO fts (rowid, title, filename, content, labels, metadata)
        SELECT rid, title, filename, inflate_text(content_z), labels_text, metadata_text FROM docs WHERE deleted = 0 ORDER BY rid;
      INSERT INTO tri (rowid, title, filename, content, labels, metadata)
        SELECT rid, title, filename, inflate_text(content_z), labels_text, metadata_text FROM docs WHERE deleted = 0 ORDER BY rid;
      INSERT INTO words (slot, len, word)
        SELECT w.slot, o.len, o.word FROM words_unranged AS o JOIN workspaces AS w ON w.workspace_id = ${wordsWorkspace};
      DROP TABLE docs_unranged;
      DROP TABLE words_unranged;
    `);
  })();
  // The old tables' pages are free now: without this the file would keep twice the index's size.
  db.exec('VACUUM');
}

/** Pages of 32 KB hold many 2 KB rows each (4 KB pages would hold one, half empty). Set before the first table. */
export const PAGE_SIZE = 32_768;

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

/** Words a fuzzy query may be corrected to: lower case, without diacritics, with a letter, 4 to 40 long. */
export function vocabulary(text: string): string[] {
  const words = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => word.length >= 4 && word.length <= 40 && /\p{L}/u.test(word));
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
    insertFts: db.prepare('INSERT INTO fts (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
    deleteFts: db.prepare(`INSERT INTO fts (fts, rowid, title, filename, content, labels, metadata) VALUES ('delete', ?, ?, ?, ?, ?, ?)`),
    insertTri: db.prepare('INSERT INTO tri (rowid, title, filename, content, labels, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
    deleteTri: db.prepare('DELETE FROM tri WHERE rowid = ?'),
  };
}
