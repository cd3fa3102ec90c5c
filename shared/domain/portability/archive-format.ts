/**
 * The workspace archive, format 1: a gzip'd tar whose entries come in this order, so that a reader streaming it
 * once meets what each entry refers to before the entry itself:
 *
 * - `labels/…`, `sources/…`, `users/…`, `rules/…`, `webhooks/…`, `usage/…`, `audit/…`: JSON lines, one record
 *   per line, in parts of at most {@link PART_MAX_RECORDS} records or {@link PART_MAX_BYTES} bytes;
 * - `documents/<n>.jsonl`, each followed by the original files of its documents (`files/<id>/original`);
 * - `manifest.json` last: the format and its version, the counts, and the size and SHA-256 of every other entry.
 *
 * No secret is written (no password hash, sealed password or signing secret); see docs/export-and-import.md.
 */

export const ARCHIVE_FORMAT = 'docservice-workspace-archive';
export const ARCHIVE_FORMAT_VERSION = 1;

/** The archive's JSON-lines collections, in the order they are written. */
export const COLLECTIONS = ['labels', 'sources', 'users', 'rules', 'webhooks', 'usage', 'audit', 'documents'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** Most records in one JSON-lines part: what a writer or reader holds at once (with the part's files' ids). */
export const PART_MAX_RECORDS = 200;
/** Most bytes of one part (one record larger than this, a long text, gets a part of its own). */
export const PART_MAX_BYTES = 8 * 1024 * 1024;
/** The largest part a reader holds: a part may pass PART_MAX_BYTES by its last record (a document's long text). */
export const PART_READ_MAX_BYTES = PART_MAX_BYTES + 64 * 1024 * 1024;

export const MANIFEST_ENTRY = 'manifest.json';
/** The largest manifest a reader takes (its entries grow with the documents: about 130 bytes each). */
export const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;

export const entryNames = {
  part: (collection: Collection, index: number) => `${collection}/${String(index).padStart(6, '0')}.jsonl`,
  file: (documentId: string) => `files/${documentId}/original`,
};

const PART = /^(labels|sources|users|rules|webhooks|usage|audit|documents)\/(\d{6})\.jsonl$/;
const FILE = /^files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/original$/;

/** What an entry's name says it is; null for a name format 1 does not have. */
export function entryKind(name: string): { kind: 'part'; collection: Collection } | { kind: 'file'; documentId: string } | { kind: 'manifest' } | null {
  if (name === MANIFEST_ENTRY) return { kind: 'manifest' };
  const part = PART.exec(name);
  if (part) return { kind: 'part', collection: part[1] as Collection };
  const file = FILE.exec(name);
  return file ? { kind: 'file', documentId: file[1]! } : null;
}

/** One entry as the manifest lists it. */
export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}

/** The archive's `manifest.json`. */
export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  format_version: number;
  created_at: string;
  workspace: { id: string; name: string };
  /** Records of each collection, and original files. */
  counts: Record<Collection, number> & { files: number };
  /** Every entry but the manifest, in archive order. */
  entries: ManifestEntry[];
}

/** An archive that is not one of ours, or not intact: `reason` is what the import reports. */
export class ArchiveRejectedError extends Error {
  constructor(
    readonly reason: 'invalid_format' | 'unsupported_version' | 'checksum_mismatch' | 'size_mismatch' | 'missing_entry' | 'unexpected_entry' | 'invalid_record',
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'ArchiveRejectedError';
  }
}
