import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { decidePage } from '../../../../shared/domain/ocr/page-texts';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { pngImage } from '../../../support/fixtures';
import { jpxScanPdf } from '../../../support/jpx-scan-pdf';
import { emptyPdf, encryptedPdf, textPdf } from '../../../support/text-pdf';

const corpus = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(OCR_CORPUS_DIR, name)));

const PAGE_ONE = ['Quarterly report of the allotment society,', 'written by the treasurer (who counts beans).'];
const PAGE_TWO = ['Second page: the compost heap is doing well.'];


describe('PdfTextLayerReader', () => {
  const reader = new PdfTextLayerReader();

  it('returns the text of every page of a PDF with a text layer, each page apart', async () => {
    const pdf = textPdf([PAGE_ONE, PAGE_TWO]);

    const result = await reader.read(pdf);

    expect(result).toEqual({
      pages: [
        { text: PAGE_ONE.join('\n'), drawsImages: false, drawsOther: true },
        { text: PAGE_TWO.join('\n'), drawsImages: false, drawsOther: true },
      ],
    });
  });

  it('tells a scanned page (an image, no text) apart: it is OCRed', async () => {
    const pdf = await corpus('skew.pdf');

    const result = await reader.read(pdf);

    expect(result?.pages).toEqual([{ text: '', drawsImages: true, drawsOther: false }]);
    expect(result?.pages.map(decidePage)).toEqual(['ocr']);
  });

  it('tells a page scanned as JPEG 2000 (JPXDecode) apart: it is OCRed', async () => {
    const { pdf } = await jpxScanPdf(['Minutes of the allotment society']);

    const result = await reader.read(pdf);

    expect(result?.pages).toEqual([{ text: '', drawsImages: true, drawsOther: false }]);
    expect(result?.pages.map(decidePage)).toEqual(['ocr']);
  });

  it('keeps the pages with text when one page of several is blank, and finds the blank one', async () => {
    const pdf = textPdf([PAGE_ONE, [], PAGE_TWO]);

    const result = await reader.read(pdf);

    expect(result?.pages[1]).toEqual({ text: '', drawsImages: false, drawsOther: false });
    expect(result?.pages.map(decidePage)).toEqual(['text_layer', 'blank', 'text_layer']);
  });

  it('keeps a page with only a page number: nothing else is drawn on it', async () => {
    const pdf = textPdf([PAGE_ONE, ['- 2 -']]);

    const result = await reader.read(pdf);

    expect(result?.pages[1]).toEqual({ text: '- 2 -', drawsImages: false, drawsOther: true });
    expect(result?.pages.map(decidePage)).toEqual(['text_layer', 'text_layer']);
  });

  it.each([
    ['blank.pdf', ['blank']],
    ['trivial.pdf', ['blank']],
    ['cardinal.pdf', ['ocr', 'ocr', 'ocr', 'ocr']],
    ['multipage.pdf', ['ocr', 'ocr', 'ocr', 'text_layer', 'ocr', 'ocr']],
    ['jbig2.pdf', ['ocr']],
    ['ccitt.pdf', ['ocr']],
  ])('decides each page of the corpus file %s', async (name, decisions) => {
    const result = await reader.read(await corpus(name));

    expect(result?.pages.map(decidePage)).toEqual(decisions);
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

  it('copies the pages asked for each into a PDF of its own, in the order asked', async () => {
    const pdf = textPdf([PAGE_ONE, PAGE_TWO, ['Third page: the shed roof needs mending.']]);

    const copies = await reader.pagePdfs(pdf, [3, 1]);

    const read = await Promise.all(copies.map((copy) => reader.read(copy)));
    expect(read.map((layer) => layer?.pages.map((page) => page.text))).toEqual([['Third page: the shed roof needs mending.'], [PAGE_ONE.join('\n')]]);
  });

  it('refuses to copy a page the PDF does not have', async () => {
    await expect(reader.pagePdfs(textPdf([PAGE_ONE]), [2])).rejects.toThrow(/no page 2/);
  });

  it('returns null for a file above the size bound without reading it', async () => {
    const small = new PdfTextLayerReader({ maxInputBytes: 100 });

    const result = await small.read(textPdf([PAGE_ONE]));

    expect(result).toBeNull();
  });

  // How fast (without decoding the image: within 2 s) is a target of bench/imaging.ts.
  it.each(['hugemono.pdf', 'enormous.pdf'])('finds the image page of %s, a page for OCR', async (name) => {
    const pdf = await corpus(name);

    const result = await reader.read(pdf);

    expect(result?.pages.map(decidePage)).toEqual(['ocr']);
  });
});
