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
 * The text columns live in `docs` (the content deflated: it is most of the bytes), and `fts` is an
 * external-content table reading them through the `fts_source` view, which inflates the content with a function
 * every connection of this adapter registers. The index thus holds the text once, compressed.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
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
  workspace_id TEXT NOT NULL, len INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (workspace_id, len, word)
) WITHOUT ROWID;
`;

/**
 * Created after the adoption of an older file (the columns must exist first). A listing reads one workspace's
 * live rows, newest first by default: this index answers its count and its default order without a table scan.
 */
export const INDEXES = `
CREATE INDEX IF NOT EXISTS docs_workspace ON docs (workspace_id, deleted, created_at);
`;

const hasColumn = (db: Database.Database, table: string, column: string): boolean =>
  (db.pragma(`table_info(${table})`) as { name: string }[]).some((info) => info.name === column);

/**
 * Adopts a file written before workspaces existed: its rows become the bootstrap workspace's. The column is
 * added with that id as its default, which SQLite applies to existing rows without rewriting them (every write
 * of this version names the workspace, so the default serves only old rows). The fuzzy vocabulary is copied
 * into the bootstrap workspace's. One transaction: a crash leaves the old file as it was.
 */
export function adoptPreWorkspaceFile(db: Database.Database): void {
  const quoted = `'${BOOTSTRAP_WORKSPACE_ID}'`;
  db.transaction(() => {
    if (!hasColumn(db, 'docs', 'workspace_id')) db.exec(`ALTER TABLE docs ADD COLUMN workspace_id TEXT NOT NULL DEFAULT ${quoted}`);
    if (!hasColumn(db, 'words', 'workspace_id')) {
      db.exec(`
        ALTER TABLE words RENAME TO words_before_workspaces;
        CREATE TABLE words (
          workspace_id TEXT NOT NULL, len INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (workspace_id, len, word)
        ) WITHOUT ROWID;
        INSERT INTO words (workspace_id, len, word) SELECT ${quoted}, len, word FROM words_before_workspaces;
        DROP TABLE words_before_workspaces;
      `);
    }
  })();
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

/** What a committed write changes in the in-memory facet columns. */
export type FacetChange = { rid: number; entry: FacetEntry | null };

export function facetEntry(row: {
  workspace_id: string;
  mime_type: string;
  status: string;
  ocr_confidence: number | null;
  created_at: string;
  label_ids: string;
}): FacetEntry {
  return {
    workspaceId: row.workspace_id,
    mimeType: row.mime_type,
    status: row.status,
    ocrConfidence: row.ocr_confidence,
    createdAt: row.created_at,
    labelIds: JSON.parse(row.label_ids) as string[],
  };
}
