import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { jpxScanPdf } from '../../../support/jpx-scan-pdf';
import { mixedPdf } from '../../../support/mixed-pdf';
import { paperPng } from '../../../support/paper-scan';
import { scanPdf } from '../../../support/scan-pdf';

const corpus = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(OCR_CORPUS_DIR, name)));

/** Letter at 150 dpi. */
const PAPER = [1275, 1650] as const;

describe('PdfTextLayerReader: blank pages', () => {
  const reader = new PdfTextLayerReader({ poolOptions: { size: 1 } });
  afterAll(() => reader.close());

  it('tells a scan of blank paper from a scan of text, page by page', async () => {
    const blank = await paperPng(...PAPER, 246);
    const pdf = await mixedPdf([{ png: blank, dpi: 150 }, { png: await corpus('linn.png') }, { png: blank, dpi: 150 }]);

    expect(await reader.blankPages(pdf, [1, 2, 3])).toEqual([true, false, true]);
  }, 60_000);

  it('does not call blank a scan whose only mark is a page number', async () => {
    // A 10-pt digit at 150 dpi is about 21 pixels high.
    const pdf = await mixedPdf([{ png: await paperPng(...PAPER, 246, { text: '7', size: 21 }), dpi: 150 }]);

    expect(await reader.blankPages(pdf, [1])).toEqual([false]);
  }, 60_000);

  it.each(['ccitt.pdf', 'jbig2.pdf', 'rotated_skew.pdf'])('does not call blank the scanned page of %s', async (name) => {
    expect(await reader.blankPages(await corpus(name), [1])).toEqual([false]);
  }, 60_000);

  it('draws a JPEG 2000 scan (pdf.js\'s JPX decoder) and does not call it blank', async () => {
    const { pdf } = await jpxScanPdf(['Minutes of the allotment society']);

    expect(await reader.blankPages(pdf, [1])).toEqual([false]);
  }, 60_000);

  it('does not call blank a page whose image cannot be decoded, which would show as white paper', async () => {
    const pdf = scanPdf({ width: 1275, height: 1650, entries: '/Filter /JPXDecode', data: Buffer.alloc(4000, 0x5a) });

    expect(await reader.blankPages(pdf, [1])).toEqual([false]);
  }, 60_000);

  it('does not call blank a page that draws more than its scan, whatever it shows: the engine reads it', async () => {
    // Paper-grey pixels, and a white rectangle filled over them: blank to the eye, but not a page of images alone.
    const paper = { width: 8, height: 8, entries: '/ColorSpace /DeviceGray /BitsPerComponent 8', data: Buffer.alloc(64, 246) };

    expect(await reader.blankPages(scanPdf(paper), [1])).toEqual([true]);
    expect(await reader.blankPages(scanPdf(paper, { extraContent: '1 g 72 72 144 144 re f' }), [1])).toEqual([false]);
  }, 60_000);

  it('answers not blank for every page, undrawn, when asked about more pages than it checks', async () => {
    const few = new PdfTextLayerReader({ poolOptions: { size: 1 }, maxBlankCheckPages: 1 });
    const blank = await paperPng(...PAPER, 246);
    const pdf = await mixedPdf([{ png: blank, dpi: 150 }, { png: blank, dpi: 150 }]);

    expect(await few.blankPages(pdf, [1, 2])).toEqual([false, false]);
    await few.close();
  }, 60_000);

  it('answers not blank for a page whose images are above its pixel bound, undrawn', async () => {
    const small = new PdfTextLayerReader({ poolOptions: { size: 1 }, maxBlankCheckPixels: 1000 });
    const pdf = await mixedPdf([{ png: await paperPng(...PAPER, 246), dpi: 150 }]);

    expect(await small.blankPages(pdf, [1])).toEqual([false]);
    await small.close();
  }, 60_000);
});
