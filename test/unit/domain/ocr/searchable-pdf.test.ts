import { describe, expect, it } from 'vitest';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import type { OcrWord } from '../../../../shared/domain/ocr/page-texts';
import { SearchablePdfRefused, type SearchablePdfState } from '../../../../shared/domain/ocr/ports';
import { storeSearchablePdf, type ReadFile, type SearchablePdfDeps } from '../../../../shared/domain/ocr/searchable-pdf';

const WORD: OcrWord = { text: 'Invoice', left: 0.1, top: 0.1, width: 0.2, height: 0.03 };
const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46]);

/** The use case's stores, kept in memory: what was put, deleted and recorded. */
const world = (write: (pages: (readonly OcrWord[] | null)[]) => Promise<Uint8Array> = async () => PDF, maxInputBytes = 1000) => {
  const puts = new Map<string, Uint8Array>();
  const deleted: string[] = [];
  const recorded: SearchablePdfState[] = [];
  const deps: SearchablePdfDeps = {
    searchablePdf: { maxInputBytes, write: (_file, pages) => write(pages) },
    files: { put: async (key, bytes) => void puts.set(key, bytes), deletePrefix: async (prefix) => void deleted.push(prefix) },
    ocrJobs: { recordSearchablePdf: async (_id, _sha, state) => (recorded.push(state), true) },
    clock: { now: () => new Date('2026-11-29T08:00:00Z') },
  };
  return { deps, puts, deleted, recorded };
};

const file = (size = 100): ReadFile => ({ size, sha256: 'a'.repeat(64), mimeType: 'image/png', readBytes: async () => new Uint8Array(size) });

describe('storeSearchablePdf', () => {
  it('stores the PDF beside the original and records its size', async () => {
    const { deps, puts, recorded } = world();

    await storeSearchablePdf(deps, 'doc-1', file(), [[WORD]]);

    expect(puts.get(fileKeys.searchablePdf('doc-1'))).toEqual(PDF);
    expect(recorded).toEqual([{ size: PDF.byteLength }]);
  });

  it('records no_ocred_pages, and removes an earlier PDF, when every page kept its layer or was blank', async () => {
    const { deps, puts, deleted, recorded } = world();

    await storeSearchablePdf(deps, 'doc-1', file(), [null, null]);

    expect(puts.size).toBe(0);
    expect(deleted).toEqual([fileKeys.searchablePdf('doc-1')]);
    expect(recorded).toEqual([expect.objectContaining({ reason: 'no_ocred_pages' })]);
  });

  it('records no_word_positions when the engine gave none', async () => {
    const { deps, recorded } = world();

    await storeSearchablePdf(deps, 'doc-1', file(), undefined);

    expect(recorded).toEqual([expect.objectContaining({ reason: 'no_word_positions' })]);
  });

  it('records not_written with the writer\'s reason when it refuses the file', async () => {
    const { deps, recorded } = world(async () => {
      throw new SearchablePdfRefused('the PDF is encrypted');
    });

    await storeSearchablePdf(deps, 'doc-1', file(), [[WORD]]);

    expect(recorded).toEqual([{ reason: 'not_written', message: 'the PDF is encrypted' }]);
  });

  it('records not_written without internals when the machine fails', async () => {
    const { deps, recorded } = world(async () => {
      throw new Error('ECONNRESET 10.0.0.7:9000');
    });

    await storeSearchablePdf(deps, 'doc-1', file(), [[WORD]]);

    expect(recorded).toEqual([{ reason: 'not_written', message: expect.not.stringContaining('ECONNRESET') }]);
  });

  it('writes none for a file above the writer\'s bound, unread', async () => {
    let read = false;
    const { deps, recorded } = world(async () => PDF, 10);

    await storeSearchablePdf(deps, 'doc-1', { ...file(100), readBytes: async () => ((read = true), new Uint8Array(100)) }, [[WORD]]);

    expect(read).toBe(false);
    expect(recorded).toEqual([expect.objectContaining({ reason: 'not_written' })]);
  });

  it('does nothing without a writer', async () => {
    const { deps, recorded } = world();

    expect(await storeSearchablePdf({ ...deps, searchablePdf: undefined }, 'doc-1', file(), [[WORD]])).toBeNull();
    expect(recorded).toEqual([]);
  });
});
