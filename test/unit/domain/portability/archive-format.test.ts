import { describe, expect, it } from 'vitest';
import { ArchiveRejectedError, COLLECTIONS, entryKind, entryNames, MANIFEST_ENTRY } from '../../../../shared/domain/portability/archive-format';

const DOCUMENT_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('entryKind', () => {
  it('reads the part of each collection from the name entryNames gives it', () => {
    // Arrange
    const names = COLLECTIONS.map((collection) => entryNames.part(collection, 3));

    // Act
    const kinds = names.map(entryKind);

    // Assert
    expect(names[0]).toBe('labels/000003.jsonl');
    expect(kinds).toEqual(COLLECTIONS.map((collection) => ({ kind: 'part', collection })));
  });

  it("reads a document's original file, with the document's id", () => {
    // Arrange
    const name = entryNames.file(DOCUMENT_ID);

    // Act
    const kind = entryKind(name);

    // Assert
    expect(kind).toEqual({ kind: 'file', documentId: DOCUMENT_ID });
  });

  it('reads the manifest', () => {
    // Arrange
    const name = MANIFEST_ENTRY;

    // Act
    const kind = entryKind(name);

    // Assert
    expect(kind).toEqual({ kind: 'manifest' });
  });

  it('knows no other name: an unknown collection, a short part number, a file of no document id, a path outside', () => {
    // Arrange
    const names = ['secrets/000001.jsonl', 'labels/1.jsonl', 'files/not-a-uuid/original', `files/${DOCUMENT_ID}/thumbnail`, `../files/${DOCUMENT_ID}/original`];

    // Act
    const kinds = names.map(entryKind);

    // Assert
    expect(kinds).toEqual([null, null, null, null, null]);
  });
});

describe('ArchiveRejectedError', () => {
  it('carries the reason an import reports and the detail, both in its message', () => {
    // Arrange
    const reason = 'checksum_mismatch' as const;

    // Act
    const error = new ArchiveRejectedError(reason, 'labels/000001.jsonl');

    // Assert
    expect(error).toMatchObject({ name: 'ArchiveRejectedError', reason, detail: 'labels/000001.jsonl', message: 'checksum_mismatch: labels/000001.jsonl' });
  });
});
