import {
  ArchiveRejectedError,
  COLLECTIONS,
  entryKind,
  MANIFEST_MAX_BYTES,
  PART_READ_MAX_BYTES,
  type ArchiveManifest,
  type Collection,
  type ManifestEntry,
} from './archive-format';
import { HashingStream, collect, sha256Of } from './json-lines';
import { checkAgainstManifest, parseManifest } from './manifest';
import type { ArchiveCodec } from './ports';
import { linesOf, parseRecord } from './records';

/** What a full read of a valid archive found: its manifest. */
export interface ValidatedArchive {
  manifest: ArchiveManifest;
}

/**
 * Reads the whole archive once, writing nothing: every entry is of format 1 and in its place, every record has
 * its shape, every document has its file (and the file the size and SHA-256 of its record), documents and rules
 * name only labels and sources of the archive, and every entry matches the manifest (size and SHA-256) that
 * ends it. Memory holds one part, the labels' and sources' ids, and one line of the manifest per entry.
 * Throws the {@link ArchiveRejectedError} of the first problem.
 */
export async function validateArchive(codec: ArchiveCodec, bytes: AsyncIterable<Uint8Array>): Promise<ValidatedArchive> {
  const entries: ManifestEntry[] = [];
  const counts = { ...(Object.fromEntries(COLLECTIONS.map((c) => [c, 0])) as Record<Collection, number>), files: 0 };
  const labelIds = new Set<string>();
  const sourceIds = new Set<string>();
  /** The files the last documents part announced and that have not come yet: id → size and SHA-256. */
  let awaitedFiles = new Map<string, { size: number; sha256: string }>();
  let lastCollection = -1;
  let manifest: ArchiveManifest | null = null;

  for await (const entry of codec.read(bytes)) {
    if (manifest) throw new ArchiveRejectedError('unexpected_entry', `${entry.name} follows manifest.json`);
    const kind = entryKind(entry.name);
    if (!kind) throw new ArchiveRejectedError('unexpected_entry', `${entry.name} is not an entry of the format`);
    if (kind.kind === 'manifest') {
      const body = await collect(entry.body, MANIFEST_MAX_BYTES);
      if (!body) throw new ArchiveRejectedError('invalid_format', 'manifest.json is too large');
      manifest = parseManifest(body);
      continue;
    }
    if (kind.kind === 'file') {
      const expected = awaitedFiles.get(kind.documentId);
      if (!expected) throw new ArchiveRejectedError('unexpected_entry', `${entry.name} belongs to no document of the part before it`);
      awaitedFiles.delete(kind.documentId);
      const body = new HashingStream(entry.body);
      for await (const _chunk of body) {
        // Hashed on the way through; nothing is kept.
      }
      const sha256 = body.sha256();
      if (body.size !== expected.size) throw new ArchiveRejectedError('size_mismatch', `${entry.name}: ${body.size} bytes, its document says ${expected.size}`);
      if (sha256 !== expected.sha256) throw new ArchiveRejectedError('checksum_mismatch', `${entry.name}: SHA-256 ${sha256}, its document says ${expected.sha256}`);
      entries.push({ name: entry.name, size: body.size, sha256 });
      counts.files += 1;
      continue;
    }
    const order = COLLECTIONS.indexOf(kind.collection);
    if (order < lastCollection) throw new ArchiveRejectedError('invalid_format', `${entry.name} comes after a later collection`);
    lastCollection = order;
    requireFilesCame(awaitedFiles);
    const body = await collect(entry.body, PART_READ_MAX_BYTES);
    if (!body) throw new ArchiveRejectedError('invalid_format', `${entry.name} is too large`);
    entries.push({ name: entry.name, size: body.byteLength, sha256: sha256Of(body) });
    awaitedFiles = new Map();
    linesOf(body).forEach((line, index) => {
      const record = parseRecord(kind.collection, line, `${entry.name} line ${index + 1}`);
      counts[kind.collection] += 1;
      const where = `${entry.name} line ${index + 1}`;
      if (kind.collection === 'labels') labelIds.add(record['id'] as string);
      if (kind.collection === 'sources') sourceIds.add(record['id'] as string);
      if (kind.collection === 'rules') requireKnown(record['add_labels'] as string[], labelIds, `${where}: add_labels names a label not in the archive`);
      if (kind.collection === 'documents') {
        requireKnown(record['labels'] as string[], labelIds, `${where}: labels names a label not in the archive`);
        if (record['source_id'] != null && !sourceIds.has(record['source_id'] as string)) throw new ArchiveRejectedError('invalid_record', `${where}: source_id names a source not in the archive`);
        if (awaitedFiles.has(record['id'] as string)) throw new ArchiveRejectedError('invalid_record', `${where}: document ${String(record['id'])} twice`);
        awaitedFiles.set(record['id'] as string, { size: record['size'] as number, sha256: record['sha256'] as string });
      }
    });
  }
  if (!manifest) throw new ArchiveRejectedError('missing_entry', 'manifest.json is not in the archive');
  requireFilesCame(awaitedFiles);
  checkAgainstManifest(manifest, { entries, counts });
  return { manifest };
}

function requireFilesCame(awaited: Map<string, unknown>): void {
  const [missing] = awaited.keys();
  if (missing !== undefined) throw new ArchiveRejectedError('missing_entry', `files/${missing}/original: the document has no file`);
}

function requireKnown(ids: string[], known: Set<string>, message: string): void {
  if (ids.some((id) => !known.has(id))) throw new ArchiveRejectedError('invalid_record', message);
}
