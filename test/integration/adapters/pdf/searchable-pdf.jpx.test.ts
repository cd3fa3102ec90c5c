import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { TesseractOcrEngine } from '../../../../shared/adapters/local/tesseract-ocr-engine';
import { writeSearchablePdf } from '../../../../shared/adapters/pdf/searchable-pdf';
import type { OcrWord } from '../../../../shared/domain/ocr/page-texts';
import { jpxScanPdf } from '../../../support/jpx-scan-pdf';
import { fileInput } from '../../../support/ocr-input';
import { extractWords, placementErrors, wordRecall } from '../../../support/pdf-words';

const LINES = ['Minutes of the allotment society', 'held in the shed on the ninth of May', 'Present: the treasurer and Kirkwall'];

/** The JPXDecode image streams of a PDF, still encoded. */
const jpxStreams = async (pdf: Uint8Array): Promise<Uint8Array[]> =>
  (await PDFDocument.load(pdf, { updateMetadata: false })).context
    .enumerateIndirectObjects()
    .flatMap(([, object]) => (object instanceof PDFRawStream && String(object.dict.get(PDFName.of('Filter'))) === '/JPXDecode' ? [object.contents] : []));

describe('writeSearchablePdf: a page scanned as JPEG 2000 (JPXDecode)', () => {
  let scan: { pdf: Uint8Array; jp2: Uint8Array };
  let words: OcrWord[];
  beforeAll(async () => {
    scan = await jpxScanPdf(LINES);
    // Tesseract reads the page as pdftoppm draws it (poppler's OpenJPEG decoder).
    const output = await new TesseractOcrEngine().recognize({ ...fileInput(scan.pdf), mimeType: 'application/pdf', language: 'eng', objectKey: 'jpx' });
    words = output.pageTexts![0]!.boxes!;
  }, 60_000);

  it('is read by Tesseract locally (pdftoppm draws JPEG 2000): every word of the page', () => {
    expect(wordRecall(LINES.join(' ').split(' '), words.map((word) => word.text))).toBe(1);
  });

  it('keeps the JPEG 2000 stream byte for byte', async () => {
    const pdf = await writeSearchablePdf({ bytes: scan.pdf, format: 'pdf', pages: [words], maxPages: 10, maxPixels: 1e8 });

    const streams = await jpxStreams(pdf);
    expect(streams).toHaveLength(1);
    expect(Buffer.from(streams[0]!).equals(Buffer.from(scan.jp2))).toBe(true);
  });

  it('lays every word where Tesseract saw it, for pdftotext to find within 2 % of the page', async () => {
    const pdf = await writeSearchablePdf({ bytes: scan.pdf, format: 'pdf', pages: [words], maxPages: 10, maxPixels: 1e8 });

    const [page] = await extractWords(pdf);
    expect(wordRecall(words.map((word) => word.text), page!.words.map((word) => word.text))).toBe(1);
    expect(Math.max(...placementErrors(words, page!))).toBeLessThanOrEqual(0.02);
  });
});
