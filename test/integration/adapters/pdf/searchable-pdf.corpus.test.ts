import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { TesseractOcrEngine } from '../../../../shared/adapters/local/tesseract-ocr-engine';
import { writeSearchablePdf } from '../../../../shared/adapters/pdf/searchable-pdf';
import { decidePage, type OcrWord, type PageDecision } from '../../../../shared/domain/ocr/page-texts';
import { OcrFailure } from '../../../../shared/domain/ocr/ports';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { fileInput } from '../../../support/ocr-input';
import { extractWords, placementErrors, wordRecall } from '../../../support/pdf-words';
import { rejectionOf } from '../../../support/rejection';

/*
 * Every file of the corpus that OCR reads (PDFs and PNGs), each page of it the kind it is: what the per-page rule
 * decides for it, and what the searchable PDF writer makes of the pages OCR reads. The words laid are a fixed set
 * (the OCR engine's own words on the scans are checked in searchable-pdf.test.ts and the bench): what is checked
 * here is that every kind of page is written, its images kept as they were encoded, with the words in place.
 */

/** What becomes of a corpus file. */
type Outcome =
  /** Written: words on the pages the rule OCRs. */
  | { written: true }
  /** No page needs OCR: no searchable PDF (`no_ocred_pages`). */
  | { written: false }
  /** OCR refuses the file (the run fails, so none is written): its reason and message. */
  | { refused: OcrFailure['reason']; message: RegExp };

interface Row {
  file: string;
  kind: string;
  /** The per-page rule's decisions; null when the text-layer reader cannot read the file (an image, a broken PDF). */
  decisions: PageDecision[] | null;
  outcome: Outcome;
}

const WRITTEN = { written: true } as const;

const TABLE: Row[] = [
  { file: 'baiona.png', kind: 'a colour PNG map', decisions: null, outcome: WRITTEN },
  { file: 'blank.pdf', kind: 'a page that draws nothing', decisions: ['blank'], outcome: { written: false } },
  { file: 'c02-22.pdf', kind: 'a book page, a layer of unreadable fonts and an illustration', decisions: ['ocr'], outcome: WRITTEN },
  { file: 'cardinal.pdf', kind: '4 scanned pages', decisions: ['ocr', 'ocr', 'ocr', 'ocr'], outcome: WRITTEN },
  { file: 'ccitt.pdf', kind: 'a CCITT G4 scan', decisions: ['ocr'], outcome: WRITTEN },
  { file: 'enormous.pdf', kind: 'a 2160 pt page, one 9000 x 9000 RGB scan', decisions: ['ocr'], outcome: WRITTEN },
  {
    file: 'hugemono.pdf',
    kind: 'a 35000 x 35000 JBIG2 bomb',
    decisions: ['ocr'],
    outcome: { refused: 'too_large', message: /too large to read at 150 dpi or more within 100 megapixels/ },
  },
  { file: 'invalid.pdf', kind: 'a header and nothing', decisions: null, outcome: { refused: 'unreadable_file', message: /corrupt or not a PDF/ } },
  { file: 'jbig2.pdf', kind: 'a JBIG2 scan', decisions: ['ocr'], outcome: WRITTEN },
  { file: 'kcs.pdf', kind: 'scanner output with an invalid outline', decisions: ['ocr'], outcome: WRITTEN },
  { file: 'linn.png', kind: 'a grey PNG scan', decisions: null, outcome: WRITTEN },
  {
    file: 'multipage.pdf',
    kind: '6 pages of mixed kinds, one with a usable text layer',
    decisions: ['ocr', 'ocr', 'ocr', 'text_layer', 'ocr', 'ocr'],
    outcome: WRITTEN,
  },
  { file: 'rotated_skew.pdf', kind: 'a skewed scan shown by /Rotate 90', decisions: ['ocr'], outcome: WRITTEN },
  { file: 'skew.pdf', kind: 'a skewed scan', decisions: ['ocr'], outcome: WRITTEN },
  { file: 'trivial.pdf', kind: 'a minimal PDF of one empty page', decisions: ['blank'], outcome: { written: false } },
  { file: 'typewriter.png', kind: 'a typewritten PNG page', decisions: null, outcome: WRITTEN },
];

/** The words laid on each OCRed page: a line of three near the top and two further down, left to right. */
const WORDS: OcrWord[] = [
  { text: 'Invisible', left: 0.1, top: 0.08, width: 0.2, height: 0.025 },
  { text: 'layer', left: 0.35, top: 0.08, width: 0.12, height: 0.025 },
  { text: 'check', left: 0.52, top: 0.08, width: 0.13, height: 0.025 },
  { text: 'placed', left: 0.2, top: 0.6, width: 0.15, height: 0.03 },
  { text: 'here', left: 0.4, top: 0.6, width: 0.1, height: 0.03 },
];

const bytesOf = async (file: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(OCR_CORPUS_DIR, file)));

/** The image streams of a PDF, still encoded, with their filters, in object order. */
const imageStreams = async (pdf: Uint8Array): Promise<{ filter: string; contents: Buffer }[]> =>
  (await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: false })).context
    .enumerateIndirectObjects()
    .flatMap(([, object]) => (object instanceof PDFRawStream && String(object.dict.get(PDFName.of('Subtype'))) === '/Image' ? [object] : []))
    .map((stream) => ({ filter: String(stream.dict.get(PDFName.of('Filter')) ?? ''), contents: Buffer.from(stream.contents) }));

const rotations = async (pdf: Uint8Array): Promise<number[]> =>
  (await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: false })).getPages().map((page) => page.getRotation().angle);

describe('writeSearchablePdf over the corpus', () => {
  const reader = new PdfTextLayerReader({ poolOptions: { size: 1 } });
  afterAll(() => reader.close());

  it('has a row for every file of the corpus that OCR reads, none left out', () => {
    const read = readdirSync(OCR_CORPUS_DIR).filter((file) => /\.(pdf|png)$/.test(file));

    expect(TABLE.map((row) => row.file).sort()).toEqual(read.sort());
  });

  describe.each(TABLE)('$file ($kind)', ({ file, decisions, outcome }) => {
    it(`is decided page by page as ${decisions ? decisions.join(', ') : 'a file OCR reads whole'}`, async () => {
      const bytes = await bytesOf(file);

      const layer = file.endsWith('.pdf') ? await reader.read(bytes) : null;

      expect(layer?.pages.map(decidePage) ?? null).toEqual(decisions);
    }, 60_000);

    if ('refused' in outcome) {
      it(`is refused by OCR (${outcome.refused}), so no searchable PDF is written`, async () => {
        const bytes = await bytesOf(file);

        const failure = await rejectionOf(new TesseractOcrEngine().recognize({ ...fileInput(bytes), mimeType: 'application/pdf', language: 'eng', objectKey: file }), OcrFailure);

        expect(failure.reason).toBe(outcome.refused);
        expect(failure.message).toMatch(outcome.message);
      }, 60_000);
      return;
    }

    if (!outcome.written) {
      it('has no page that needs OCR, so no searchable PDF is written', () => {
        expect(decisions?.every((decision) => decision !== 'ocr')).toBe(true);
      });
      return;
    }

    const pages = decisions ?? [null];
    const words = pages.map((decision) => (decision === 'text_layer' ? null : WORDS));

    it('is written with every word on each OCRed page, within 2 % of the page of its box', async () => {
      const bytes = await bytesOf(file);

      const pdf = await writeSearchablePdf({ bytes, format: file.endsWith('.pdf') ? 'pdf' : 'png', pages: words, maxPages: 500, maxPixels: 100_000_000 });

      const extracted = await extractWords(pdf);
      expect(extracted).toHaveLength(pages.length);
      for (const [i, placed] of words.entries()) {
        if (!placed) continue;
        expect(wordRecall(placed.map((word) => word.text), extracted[i]!.words.map((word) => word.text))).toBe(1);
        expect(Math.max(...placementErrors(placed, extracted[i]!))).toBeLessThanOrEqual(0.02);
      }
    }, 60_000);

    if (file.endsWith('.pdf')) {
      it('keeps every page\'s image streams byte for byte, its rotation and its kept text layer, within 1.2x of its size', async () => {
        const bytes = await bytesOf(file);

        const pdf = await writeSearchablePdf({ bytes, format: 'pdf', pages: words, maxPages: 500, maxPixels: 100_000_000 });

        const [before, after] = await Promise.all([imageStreams(bytes), imageStreams(pdf)]);
        expect(after.map((image) => image.filter)).toEqual(before.map((image) => image.filter));
        expect(after.every((image, i) => image.contents.equals(before[i]!.contents))).toBe(true);
        expect(await rotations(pdf)).toEqual(await rotations(bytes));
        const [original, written] = await Promise.all([extractWords(bytes), extractWords(pdf)]);
        for (const [i, decision] of pages.entries()) {
          if (decision === 'text_layer') expect(written[i]!.words.map((word) => word.text)).toEqual(original[i]!.words.map((word) => word.text));
        }
        expect(pdf.byteLength).toBeLessThanOrEqual(bytes.byteLength * 1.2);
      }, 60_000);
    }
  });
});
