import { describe, expect, it } from 'vitest';
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, ArchiveRejectedError, COLLECTIONS, type ArchiveManifest } from '../../../../shared/domain/portability/archive-format';
import { checkAgainstManifest, parseManifest, type ArchiveContents } from '../../../../shared/domain/portability/manifest';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const zeroCounts = () => ({ ...Object.fromEntries(COLLECTIONS.map((c) => [c, 0])), files: 0 }) as ArchiveManifest['counts'];

const manifest = (overrides: Partial<ArchiveManifest> = {}): ArchiveManifest => ({
  format: ARCHIVE_FORMAT,
  format_version: ARCHIVE_FORMAT_VERSION,
  created_at: '2026-11-29T08:00:00.000Z',
  workspace: { id: 'ws', name: 'Acme' },
  counts: { ...zeroCounts(), labels: 1 },
  entries: [{ name: 'labels/000001.jsonl', size: 10, sha256: HASH_A }],
  ...overrides,
});
const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const found = (overrides: Partial<ArchiveContents> = {}): ArchiveContents => ({
  entries: [{ name: 'labels/000001.jsonl', size: 10, sha256: HASH_A }],
  counts: { ...zeroCounts(), labels: 1 },
  ...overrides,
});
const rejection = (act: () => unknown) => {
  try {
    act();
  } catch (error) {
    return error instanceof ArchiveRejectedError ? error.reason : `not a rejection: ${String(error)}`;
  }
  return 'accepted';
};

describe('parseManifest', () => {
  it('reads a manifest of format 1', () => {
    expect(parseManifest(bytesOf(manifest())).workspace.name).toBe('Acme');
  });

  it('refuses bytes that are not JSON as invalid_format', () => {
    expect(rejection(() => parseManifest(new TextEncoder().encode('{not json')))).toBe('invalid_format');
  });

  it('refuses a manifest of another format as invalid_format', () => {
    expect(rejection(() => parseManifest(bytesOf({ ...manifest(), format: 'zip-of-something' })))).toBe('invalid_format');
  });

  it('refuses a manifest of another version as unsupported_version', () => {
    expect(rejection(() => parseManifest(bytesOf({ ...manifest(), format_version: 2 })))).toBe('unsupported_version');
  });

  it('refuses a manifest whose counts miss a collection', () => {
    const { audit: _audit, ...counts } = manifest().counts;

    expect(rejection(() => parseManifest(bytesOf({ ...manifest(), counts })))).toBe('invalid_format');
  });

  it('refuses an entry whose checksum is not a SHA-256', () => {
    expect(rejection(() => parseManifest(bytesOf(manifest({ entries: [{ name: 'x', size: 1, sha256: 'abc' }] }))))).toBe('invalid_format');
  });
});

describe('checkAgainstManifest', () => {
  it('accepts contents that match every entry and count', () => {
    expect(rejection(() => checkAgainstManifest(manifest(), found()))).toBe('accepted');
  });

  it('refuses an entry whose SHA-256 differs as checksum_mismatch', () => {
    expect(rejection(() => checkAgainstManifest(manifest(), found({ entries: [{ name: 'labels/000001.jsonl', size: 10, sha256: HASH_B }] })))).toBe('checksum_mismatch');
  });

  it('refuses an entry whose size differs as size_mismatch', () => {
    expect(rejection(() => checkAgainstManifest(manifest(), found({ entries: [{ name: 'labels/000001.jsonl', size: 11, sha256: HASH_A }] })))).toBe('size_mismatch');
  });

  it('refuses an entry the manifest does not list as unexpected_entry', () => {
    const entries = [...found().entries, { name: 'rules/000001.jsonl', size: 1, sha256: HASH_B }];

    expect(rejection(() => checkAgainstManifest(manifest(), found({ entries })))).toBe('unexpected_entry');
  });

  it('refuses a listed entry the archive lacks as missing_entry', () => {
    expect(rejection(() => checkAgainstManifest(manifest(), found({ entries: [] })))).toBe('missing_entry');
  });

  it('refuses counts that differ from the records read', () => {
    expect(rejection(() => checkAgainstManifest(manifest(), found({ counts: { ...zeroCounts(), labels: 2 } })))).toBe('invalid_format');
  });
});
