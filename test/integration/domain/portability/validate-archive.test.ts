import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tarGzipCodec } from '../../../../shared/adapters/archive/tar-gzip-codec';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ArchiveRejectedError,
  COLLECTIONS,
  entryNames,
  MANIFEST_ENTRY,
  type ArchiveManifest,
} from '../../../../shared/domain/portability/archive-format';
import { validateArchive } from '../../../../shared/domain/portability/validate-archive';
import { aDocumentRecord } from '../../../support/builders';

/** One entry of an archive the test writes, in order. */
interface Entry {
  name: string;
  bytes: Uint8Array;
}

const encode = (text: string) => new TextEncoder().encode(text);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const jsonLines = (...records: unknown[]) => encode(records.map((record) => `${JSON.stringify(record)}\n`).join(''));

const LABEL_ID = crypto.randomUUID();
const aLabel = (id = LABEL_ID) => ({ id, name: 'invoices', color: '#112233', description: null, created_by: 'u', created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z' });
/** A document's line, of `file`'s size and SHA-256, with the test label. */
const aDocumentLine = (file: Uint8Array, overrides: Record<string, unknown> = {}) => {
  const { version: _v, ...record } = aDocumentRecord({ size: file.byteLength, sha256: sha256(file), labels: [LABEL_ID], status: 'completed' });
  return { ...record, text: 'invoice total', ...overrides };
};

/** The manifest of `entries`, counting `records` per collection. */
function manifestOf(entries: Entry[], records: Partial<Record<(typeof COLLECTIONS)[number] | 'files', number>>): Entry {
  const counts = { ...Object.fromEntries(COLLECTIONS.map((c) => [c, 0])), files: 0, ...records } as ArchiveManifest['counts'];
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    format_version: ARCHIVE_FORMAT_VERSION,
    created_at: '2026-11-29T10:00:00Z',
    workspace: { id: crypto.randomUUID(), name: 'Acme' },
    counts,
    entries: entries.map(({ name, bytes }) => ({ name, size: bytes.byteLength, sha256: sha256(bytes) })),
  };
  return { name: MANIFEST_ENTRY, bytes: encode(JSON.stringify(manifest)) };
}

/** The archive's bytes as the codec writes them. */
const archiveOf = (entries: Entry[]): AsyncIterable<Uint8Array> =>
  tarGzipCodec.write(async (sink) => {
    for (const { name, bytes } of entries) await sink.add(name, bytes.byteLength, bytes);
  });

/** An intact archive: one label, one document of that label, the document's file, the manifest. */
function intactEntries(file = encode('%PDF-1.7 original bytes')) {
  const document = aDocumentLine(file);
  const entries: Entry[] = [
    { name: entryNames.part('labels', 1), bytes: jsonLines(aLabel()) },
    { name: entryNames.part('documents', 1), bytes: jsonLines(document) },
    { name: entryNames.file(document.id), bytes: file },
  ];
  return { entries, document, manifest: manifestOf(entries, { labels: 1, documents: 1, files: 1 }) };
}

const rejectionOf = async (entries: Entry[]) =>
  validateArchive(tarGzipCodec, archiveOf(entries)).then(
    () => 'accepted',
    (error: unknown) => (error instanceof ArchiveRejectedError ? error.reason : `other: ${String(error)}`),
  );

describe('validateArchive with the tar.gz codec', () => {
  it('accepts an intact archive and answers its manifest', async () => {
    // Arrange
    const { entries, manifest } = intactEntries();

    // Act
    const validated = await validateArchive(tarGzipCodec, archiveOf([...entries, manifest]));

    // Assert
    expect(validated.manifest.counts).toMatchObject({ labels: 1, documents: 1, files: 1 });
    expect(validated.manifest.entries.map((entry) => entry.name)).toEqual(entries.map((entry) => entry.name));
  });

  it("refuses a file whose bytes are not those its document's record names, as checksum_mismatch", async () => {
    // Arrange
    const { entries } = intactEntries();
    const tampered = entries.map((entry) => (entry.name.startsWith('files/') ? { ...entry, bytes: encode('%PDF-1.7 ORIGINAL BYTES') } : entry));

    // Act
    const reason = await rejectionOf([...tampered, manifestOf(tampered, { labels: 1, documents: 1, files: 1 })]);

    // Assert
    expect(reason).toBe('checksum_mismatch');
  });

  it('refuses a document whose file is not in the archive, as missing_entry', async () => {
    // Arrange
    const { entries } = intactEntries();
    const withoutFile = entries.filter((entry) => !entry.name.startsWith('files/'));

    // Act
    const reason = await rejectionOf([...withoutFile, manifestOf(withoutFile, { labels: 1, documents: 1 })]);

    // Assert
    expect(reason).toBe('missing_entry');
  });

  it('refuses a document naming a label the archive does not hold, as invalid_record', async () => {
    // Arrange
    const file = encode('bytes');
    const document = aDocumentLine(file);
    const entries: Entry[] = [
      { name: entryNames.part('documents', 1), bytes: jsonLines(document) },
      { name: entryNames.file(document.id), bytes: file },
    ];

    // Act
    const reason = await rejectionOf([...entries, manifestOf(entries, { documents: 1, files: 1 })]);

    // Assert
    expect(reason).toBe('invalid_record');
  });

  it('refuses a part changed after its manifest was written, as checksum_mismatch', async () => {
    // Arrange
    const { entries, manifest } = intactEntries();
    const renamed = entries.map((entry) => (entry.name.startsWith('labels/') ? { ...entry, bytes: jsonLines({ ...aLabel(), name: 'receipts' }) } : entry));

    // Act
    const reason = await rejectionOf([...renamed, manifest]);

    // Assert
    expect(reason).toBe('checksum_mismatch');
  });

  it('refuses an archive without a manifest, as missing_entry', async () => {
    // Arrange
    const { entries } = intactEntries();

    // Act
    const reason = await rejectionOf(entries);

    // Assert
    expect(reason).toBe('missing_entry');
  });

  it('refuses an entry after the manifest, as unexpected_entry', async () => {
    // Arrange
    const { entries, manifest } = intactEntries();

    // Act
    const reason = await rejectionOf([...entries, manifest, { name: entryNames.part('audit', 1), bytes: jsonLines({}) }]);

    // Assert
    expect(reason).toBe('unexpected_entry');
  });

  it('refuses a collection that comes after a later one, as invalid_format', async () => {
    // Arrange
    const entries: Entry[] = [
      { name: entryNames.part('rules', 1), bytes: new Uint8Array() },
      { name: entryNames.part('labels', 1), bytes: jsonLines(aLabel()) },
    ];

    // Act
    const reason = await rejectionOf([...entries, manifestOf(entries, { labels: 1 })]);

    // Assert
    expect(reason).toBe('invalid_format');
  });

  it('refuses a manifest whose counts differ from the records read, as invalid_format', async () => {
    // Arrange
    const { entries } = intactEntries();

    // Act
    const reason = await rejectionOf([...entries, manifestOf(entries, { labels: 2, documents: 1, files: 1 })]);

    // Assert
    expect(reason).toBe('invalid_format');
  });
});
