import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ArchiveRejectedError,
  COLLECTIONS,
  type ArchiveManifest,
  type Collection,
  type ManifestEntry,
} from './archive-format';

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads `manifest.json`: an {@link ArchiveManifest} of format 1, or an {@link ArchiveRejectedError} saying why
 * not (`invalid_format`, or `unsupported_version` for a manifest of another version).
 */
export function parseManifest(bytes: Uint8Array): ArchiveManifest {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ArchiveRejectedError('invalid_format', 'manifest.json is not JSON');
  }
  if (!isObject(value) || value['format'] !== ARCHIVE_FORMAT) throw new ArchiveRejectedError('invalid_format', `manifest.json does not name the format ${ARCHIVE_FORMAT}`);
  if (value['format_version'] !== ARCHIVE_FORMAT_VERSION) {
    throw new ArchiveRejectedError('unsupported_version', `format_version ${JSON.stringify(value['format_version'])} (this service reads ${ARCHIVE_FORMAT_VERSION})`);
  }
  const { counts, entries, workspace } = value;
  if (!isObject(workspace) || typeof workspace['id'] !== 'string' || typeof workspace['name'] !== 'string') {
    throw new ArchiveRejectedError('invalid_format', 'manifest.json: workspace');
  }
  if (!isObject(counts) || ![...COLLECTIONS, 'files'].every((key) => isCount(counts[key]))) throw new ArchiveRejectedError('invalid_format', 'manifest.json: counts');
  if (!Array.isArray(entries) || !entries.every(isEntry)) throw new ArchiveRejectedError('invalid_format', 'manifest.json: entries');
  if (typeof value['created_at'] !== 'string') throw new ArchiveRejectedError('invalid_format', 'manifest.json: created_at');
  return value as unknown as ArchiveManifest;
}

const isEntry = (value: unknown): value is ManifestEntry =>
  isObject(value) && typeof value['name'] === 'string' && isCount(value['size']) && typeof value['sha256'] === 'string' && /^[0-9a-f]{64}$/.test(value['sha256']);

/** What a reader found in the archive, to hold against its manifest. */
export interface ArchiveContents {
  /** Every entry before the manifest, in order, with the size and SHA-256 of the bytes read. */
  entries: ManifestEntry[];
  /** Records read of each collection, and original files. */
  counts: Record<Collection, number> & { files: number };
}

/**
 * Holds the archive's contents against its manifest: the same entries in the same order, each of the size and
 * SHA-256 listed, and the same counts. The first difference is the {@link ArchiveRejectedError}.
 */
export function checkAgainstManifest(manifest: ArchiveManifest, found: ArchiveContents): void {
  const listed = new Map(manifest.entries.map((entry) => [entry.name, entry]));
  if (listed.size !== manifest.entries.length) throw new ArchiveRejectedError('invalid_format', 'manifest.json lists an entry twice');
  for (const entry of found.entries) {
    const expected = listed.get(entry.name);
    if (!expected) throw new ArchiveRejectedError('unexpected_entry', `${entry.name} is not in the manifest`);
    if (expected.size !== entry.size) throw new ArchiveRejectedError('size_mismatch', `${entry.name}: ${entry.size} bytes, the manifest says ${expected.size}`);
    if (expected.sha256 !== entry.sha256) throw new ArchiveRejectedError('checksum_mismatch', `${entry.name}: SHA-256 ${entry.sha256}, the manifest says ${expected.sha256}`);
    listed.delete(entry.name);
  }
  const [missing] = listed.keys();
  if (missing !== undefined) throw new ArchiveRejectedError('missing_entry', `${missing} is in the manifest but not in the archive`);
  for (const key of [...COLLECTIONS, 'files'] as const) {
    if (manifest.counts[key] !== found.counts[key]) {
      throw new ArchiveRejectedError('invalid_format', `manifest.json counts ${manifest.counts[key]} ${key}, the archive holds ${found.counts[key]}`);
    }
  }
}
