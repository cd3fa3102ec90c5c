import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PdfTextLayerReader } from '../../../shared/adapters/imaging/pdf-text-layer-reader';
import { OCR_CORPUS_DIR } from '../../contracts/ocr-engine.contract';
import { pngImage } from '../../support/fixtures';
import { emptyPdf, encryptedPdf, textPdf } from '../../support/text-pdf';

const corpus = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(OCR_CORPUS_DIR, name)));

const PAGE_ONE = ['Quarterly report of the allotment society,', 'written by the treasurer (who counts beans).'];
const PAGE_TWO = ['Second page: the compost heap is doing well.'];

/** Extracting text decodes no image, so even decompression bombs are read in well under this. */
const QUICK_MS = 2000;

describe('PdfTextLayerReader', () => {
  const reader = new PdfTextLayerReader();

  it('returns the text of every page of a PDF with a text layer, pages joined by a form feed line', async () => {
    const pdf = textPdf([PAGE_ONE, PAGE_TWO]);

    const result = await reader.read(pdf);

    expect(result).toEqual({ text: `${PAGE_ONE.join('\n')}\n\f\n${PAGE_TWO.join('\n')}`, pages: 2 });
  });

  it('returns null for a scanned PDF without a text layer', async () => {
    const pdf = await corpus('skew.pdf');

    const result = await reader.read(pdf);

    expect(result).toBeNull();
  });

  it('returns null when one page of several has no text', async () => {
    const pdf = textPdf([PAGE_ONE, [], PAGE_TWO]);

    const result = await reader.read(pdf);

    expect(result).toBeNull();
  });

  it('returns null when a page has only a few characters, such as a page number', async () => {
    const pdf = textPdf([PAGE_ONE, ['- 2 -']]);

    const result = await reader.read(pdf);

    expect(result).toBeNull();
  });

  it('returns null for a PDF with nothing after its header', async () => {
    const pdf = await corpus('invalid.pdf');

    const result = await reader.read(pdf);

    expect(result).toBeNull();
  });

  it('returns null for a PDF that needs a password', async () => {
    const pdf = encryptedPdf([PAGE_ONE]);

    const result = await reader.read(pdf);

    expect(result).toBeNull();
  });

  it('returns null for a PDF without pages', async () => {
    const result = await reader.read(emptyPdf());

    expect(result).toBeNull();
  });

  it('returns null for a file that is not a PDF', async () => {
    const result = await reader.read(pngImage(20, 20));

    expect(result).toBeNull();
  });

  it('returns null for a file above the size bound without reading it', async () => {
    const small = new PdfTextLayerReader({ maxInputBytes: 100 });

    const result = await small.read(textPdf([PAGE_ONE]));

    expect(result).toBeNull();
  });

  it.each(['hugemono.pdf', 'enormous.pdf'])('returns null quickly for %s, whose image it never decodes', async (name) => {
    const pdf = await corpus(name);
    const started = performance.now();

    const result = await reader.read(pdf);

    expect(result).toBeNull();
    expect(performance.now() - started).toBeLessThan(QUICK_MS);
  });
});
