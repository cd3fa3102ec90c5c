import { describe, expect, it } from 'vitest';
import { fileKeys } from '../../../../shared/domain/files/file-keys';

const ID = '22222222-2222-4222-8222-222222222222';

describe('fileKeys', () => {
  it("keeps every file of a document under the document's prefix, so that one delete removes them all", () => {
    // Act
    const keys = [fileKeys.original(ID), fileKeys.thumbnail(ID, 200, 100), fileKeys.searchablePdf(ID), fileKeys.text(ID), fileKeys.thumbnails(ID)];

    // Assert
    for (const key of keys) expect(key.startsWith(fileKeys.prefix(ID))).toBe(true);
  });

  it('names each thumbnail size apart', () => {
    // Act
    const keys = [fileKeys.thumbnail(ID, 200, 100), fileKeys.thumbnail(ID, 100, 200)];

    // Assert
    expect(keys).toEqual([`documents/${ID}/thumbnails/200x100`, `documents/${ID}/thumbnails/100x200`]);
  });

  it("keeps staged files outside every document's prefix", () => {
    // Act
    const keys = [fileKeys.staged(ID), fileKeys.syncStaged(ID)];

    // Assert
    expect(keys).toEqual([`uploads/${ID}`, `sync-staging/${ID}`]);
    for (const key of keys) expect(key.startsWith('documents/')).toBe(false);
  });
});
