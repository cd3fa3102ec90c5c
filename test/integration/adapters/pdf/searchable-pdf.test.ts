import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { PDFDocument, PDFName, PDFRawStream, degrees } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoolSearchablePdfWriter } from '../../../../shared/adapters/pdf/pool-searchable-pdf-writer';
import { writeSearchablePdf } from '../../../../shared/adapters/pdf/searchable-pdf';
import { TesseractOcrEngine } from '../../../../shared/adapters/local/tesseract-ocr-engine';
import { FileRefusal } from '../../../../shared/adapters/imaging/jobs';
import type { ImageFormat } from '../../../../shared/adapters/imaging/formats';
import type { OcrWord } from '../../../../shared/domain/ocr/page-texts';
import { SearchablePdfRefused } from '../../../../shared/domain/ocr/ports';
import { OCR_CORPUS_DIR } from '../../../contracts/ocr-engine.contract';
import { pngImage } from '../../../support/fixtures';
import { fileInput } from '../../../support/ocr-input';
import { extractWords, placementErrors, wordRecall } from '../../../support/pdf-words';
import { rejectionOf } from '../../../support/rejection';
import { encryptedPdf, textPdf } from '../../../support/text-pdf';

const corpus = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(OCR_CORPUS_DIR, name)));

const MIME: Record<ImageFormat, string> = { pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg', tiff: 'image/tiff', webp: 'image/webp' };

const engine = new TesseractOcrEngine();

/** What Tesseract reads of each page, with word boxes: the words a searchable PDF lays on them. */
const ocrWords = async (bytes: Uint8Array, format: ImageFormat): Promise<OcrWord[][]> => {
  const output = await engine.recognize({ ...fileInput(bytes), mimeType: MIME[format], language: 'eng', objectKey: 'test' });
  return (output.pageTexts ?? []).map((page) => page.boxes ?? []);
};

const write = (bytes: Uint8Array, format: ImageFormat, pages: (readonly OcrWord[] | null)[]) =>
  writeSearchablePdf({ bytes, format, pages, maxPages: 500, maxPixels: 100_000_000 });

/** Every word read is found by pdftotext, each within 2 % of the page of where the engine saw it. */
const expectWordsInPlace = async (pdf: Uint8Array, pages: readonly (readonly OcrWord[] | null)[]) => {
  const extracted = await extractWords(pdf);
  expect(extracted).toHaveLength(pages.length);
  for (const [i, words] of pages.entries()) {
    if (!words) continue;
    const page = extracted[i]!;
    expect(wordRecall(words.map((word) => word.text), page.words.map((word) => word.text))).toBe(1);
    expect(Math.max(0, ...placementErrors(words, page))).toBeLessThanOrEqual(0.02);
  }
};

/** The raw (still encoded) image streams of a PDF, by filter. */
const imageStreams = async (pdf: Uint8Array): Promise<{ filter: string; contents: Uint8Array }[]> => {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  return document.context
    .enumerateIndirectObjects()
    .flatMap(([, object]) => (object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype'))?.toString() === '/Image' ? [object] : []))
    .map((stream) => ({ filter: String(stream.dict.get(PDFName.of('Filter')) ?? ''), contents: stream.contents }));
};

describe('writeSearchablePdf', () => {
  describe('an image file', () => {
    let linn: Uint8Array;
    let words: OcrWord[][];
    beforeAll(async () => {
      linn = await corpus('linn.png');
      words = await ocrWords(linn, 'png');
    }, 60_000);

    it('puts every word of a PNG scan where Tesseract saw it, for pdftotext to find', async () => {
      const pdf = await write(linn, 'png', words);

      await expectWordsInPlace(pdf, words);
      expect(words[0]!.length).toBeGreaterThan(500);
    });

    it('embeds a PNG scan without alpha from its own compressed rows, so the PDF is barely larger', async () => {
      const pdf = await write(linn, 'png', words);

      const [image] = await imageStreams(pdf);
      expect(image?.filter).toBe('/FlateDecode');
      expect(pdf.byteLength).toBeLessThan(linn.byteLength * 1.2);
    });

    it('embeds a JPEG as it is, byte for byte', async () => {
      const jpeg = await jpegOf();

      const pdf = await write(jpeg, 'jpeg', [[{ text: 'Typewriter', left: 0.1, top: 0.1, width: 0.3, height: 0.05 }]]);

      const [image] = await imageStreams(pdf);
      expect(image?.filter).toBe('/DCTDecode');
      expect(Buffer.from(image!.contents).equals(Buffer.from(jpeg))).toBe(true);
    });

    it('makes a page of a TIFF (decoded and stored losslessly) with its words', async () => {
      const tiff = await tiffOf(linn);
      const tiffWords = await ocrWords(tiff, 'tiff');

      const pdf = await write(tiff, 'tiff', tiffWords);

      await expectWordsInPlace(pdf, tiffWords);
    }, 60_000);

    it('embeds a Group 4 TIFF page as its compressed strip (CCITTFaxDecode), not decoded', async () => {
      const { tiff, strip } = await g4TiffFromCorpus();

      const pdf = await write(tiff, 'tiff', [[{ text: 'fax', left: 0.1, top: 0.1, width: 0.1, height: 0.02 }]]);

      const [image] = await imageStreams(pdf);
      expect(image?.filter).toBe('/CCITTFaxDecode');
      expect(Buffer.from(image!.contents).equals(Buffer.from(strip))).toBe(true);
    });

    it.each([90, 180, 270] as const)('turns a scan lying turned by %i degrees upright, its words read left to right where the page shows them', async (degrees) => {
      const upright = new Uint8Array(await readFile(path.join(OCR_CORPUS_DIR, 'typewriter.png')));
      const lying = await turnedPng(upright, degrees);
      const words = await ocrWords(lying, 'png');

      const pdf = await write(lying, 'png', words);

      const [page] = (await PDFDocument.load(pdf)).getPages();
      expect(page!.getRotation().angle).toBe((360 - degrees) % 360);
      const [shown] = await extractWords(pdf);
      const title = shown!.words.filter((word) => ['Linzensoep', 'Waterman'].includes(word.text));
      expect(title.map((word) => word.text)).toEqual(['Linzensoep', 'Waterman']);
      // Upright: the title reads left to right along a line near the top of the page as shown.
      expect(title[1]!.xMin).toBeGreaterThan(title[0]!.xMax);
      expect(Math.abs(title[1]!.yMin - title[0]!.yMin)).toBeLessThan(0.02 * shown!.height);
      expect(title[0]!.yMin).toBeLessThan(0.2 * shown!.height);
      expect(wordRecall(words[0]!.map((word) => word.text), shown!.words.map((word) => word.text))).toBe(1);
    }, 60_000);

    it('refuses an image above the pixel bound before decoding it', async () => {
      const big = new Uint8Array(pngImage(2000, 2000));

      const error = await rejectionOf(writeSearchablePdf({ bytes: big, format: 'png', pages: [[]], maxPages: 10, maxPixels: 1_000_000 }), FileRefusal);

      expect(error.message).toMatch(/megapixels/);
    });
  });

  describe('a PDF', () => {
    it('lays the words on a scanned page drawn as JBIG2, keeping the image stream as it is, within 1.2x of its size', async () => {
      const scan = await corpus('jbig2.pdf');
      const words = await ocrWords(scan, 'pdf');

      const pdf = await write(scan, 'pdf', words);

      await expectWordsInPlace(pdf, words);
      const before = await imageStreams(scan);
      const after = await imageStreams(pdf);
      expect(after.map((image) => image.filter)).toEqual(before.map((image) => image.filter));
      expect(after.every((image, i) => Buffer.from(image.contents).equals(Buffer.from(before[i]!.contents)))).toBe(true);
      expect(pdf.byteLength).toBeLessThanOrEqual(scan.byteLength * 1.2);
    }, 60_000);

    it('lays the words on a CCITT scan, within 1.2x of its size', async () => {
      const scan = await corpus('ccitt.pdf');
      const words = await ocrWords(scan, 'pdf');

      const pdf = await write(scan, 'pdf', words);

      await expectWordsInPlace(pdf, words);
      expect(pdf.byteLength).toBeLessThanOrEqual(scan.byteLength * 1.2);
    }, 60_000);

    it('lays the words on a scan of a few kilobytes (CCITT, 4.4 KB) within 1.2x of its size', async () => {
      const scan = await corpus('kcs.pdf');
      const words = await ocrWords(scan, 'pdf');

      const pdf = await write(scan, 'pdf', words);

      await expectWordsInPlace(pdf, words);
      expect(pdf.byteLength).toBeLessThanOrEqual(scan.byteLength * 1.2);
    }, 60_000);

    it('lays the words of four pages drawing one shared image, each turned upright, within 1.2x of the file', async () => {
      const scan = await corpus('cardinal.pdf');
      const words = await ocrWords(scan, 'pdf');

      const pdf = await write(scan, 'pdf', words);

      expect(await imageStreams(pdf)).toHaveLength(1);
      expect(pdf.byteLength).toBeLessThanOrEqual(scan.byteLength * 1.2);
    }, 180_000);

    it('aligns the words of a page shown turned by its /Rotate with what it shows', async () => {
      const scan = await corpus('rotated_skew.pdf');
      const words = await ocrWords(scan, 'pdf');

      const pdf = await write(scan, 'pdf', words);

      const [page] = (await PDFDocument.load(pdf)).getPages();
      expect(page!.getRotation().angle).toBe(90);
      await expectWordsInPlace(pdf, words);
    }, 60_000);

    it('aligns words on every rotation of a page', async () => {
      const words: OcrWord[] = [
        { text: 'Upper', left: 0.1, top: 0.1, width: 0.2, height: 0.03 },
        { text: 'lower', left: 0.6, top: 0.85, width: 0.25, height: 0.04 },
      ];
      for (const angle of [0, 90, 180, 270]) {
        const source = await PDFDocument.create();
        source.addPage([400, 600]).setRotation(degrees(angle));
        const bytes = await source.save();

        const pdf = await write(bytes, 'pdf', [words]);

        await expectWordsInPlace(pdf, [words]);
      }
    });

    it('copies a page that kept its text layer as it is, beside an OCRed one', async () => {
      const text = textPdf([['The exact text layer of the first page'], []]);
      const words: OcrWord[] = [{ text: 'Scanned', left: 0.1, top: 0.1, width: 0.2, height: 0.03 }];

      const pdf = await write(text, 'pdf', [null, words]);

      const [first, second] = await extractWords(pdf);
      expect(first!.words.map((word) => word.text).join(' ')).toBe('The exact text layer of the first page');
      expect(second!.words.map((word) => word.text)).toEqual(['Scanned']);
    });

    it('keeps a word whose box is under half a point high (a dash read from a map), for pdftotext to find', async () => {
      const source = await PDFDocument.create();
      source.addPage([154, 164]);
      const words: OcrWord[] = [
        { text: 'frenbideak', left: 0.1, top: 0.9, width: 0.3, height: 0.04 },
        { text: '-', left: 0.925, top: 0.921, width: 0.009, height: 0.003 },
      ];

      const pdf = await write(await source.save(), 'pdf', [words]);

      await expectWordsInPlace(pdf, [words]);
    });

    it('gives back the words of any script as read: Latin-1, typographic marks, Greek, Cyrillic, Chinese, and a line mixing them', async () => {
      const source = await PDFDocument.create();
      source.addPage([612, 792]);
      const texts = [['naïve', 'Ærø', '“quoted”', '€5', '—', '½'], ['λόγος', 'слово', '文字', 'ﬁnal'], ['mixed', 'ελληνικά', 'and', 'Latin']];
      const words: OcrWord[] = texts.flatMap((line, row) =>
        line.map((text, column) => ({ text, left: 0.05 + column * 0.15, top: 0.1 + row * 0.1, width: 0.03 + text.length * 0.012, height: 0.025 })),
      );

      const pdf = await write(await source.save(), 'pdf', [words]);

      const [page] = await extractWords(pdf);
      expect(page!.words.map((word) => word.text).sort()).toEqual(texts.flat().sort());
      await expectWordsInPlace(pdf, [words]);
    });

    it('writes a page on which OCR read no word as it was, with no text', async () => {
      const source = await PDFDocument.create();
      source.addPage([300, 300]);

      const pdf = await write(await source.save(), 'pdf', [[]]);

      const [page] = await extractWords(pdf);
      expect(page!.words).toEqual([]);
    });

    it('refuses an encrypted PDF, as OCR does', async () => {
      const error = await rejectionOf(write(encryptedPdf([['secret']]), 'pdf', [[]]), FileRefusal);

      expect(error.message).toBe('the PDF is encrypted');
    });

    it('refuses a PDF whose page count is not the one OCR read', async () => {
      const error = await rejectionOf(write(textPdf([['one'], ['two']]), 'pdf', [[]]), FileRefusal);

      expect(error.message).toMatch(/2 pages where OCR read 1/);
    });
  });
});

describe('PoolSearchablePdfWriter', () => {
  const writer = new PoolSearchablePdfWriter({ poolOptions: { size: 1 } });
  afterAll(() => writer.close());

  it('writes in a worker thread what the writer writes in-thread', async () => {
    const words: OcrWord[] = [{ text: 'Pooled', left: 0.2, top: 0.2, width: 0.3, height: 0.05 }];

    const pdf = await writer.write({ bytes: textPdf([[]]), mimeType: 'application/pdf' }, [words]);

    await expectWordsInPlace(pdf, [words]);
  }, 60_000);

  it('answers the worker\'s refusal as a SearchablePdfRefused with its reason', async () => {
    const error = await rejectionOf(writer.write({ bytes: encryptedPdf([['secret']]), mimeType: 'application/pdf' }, [[]]), SearchablePdfRefused);

    expect(error.message).toMatch(/encrypted/);
  }, 60_000);

  it('refuses a file with more pages than its bound unread', async () => {
    const few = new PoolSearchablePdfWriter({ poolOptions: { size: 1 }, maxPages: 1 });

    const error = await rejectionOf(few.write({ bytes: textPdf([['one'], ['two']]), mimeType: 'application/pdf' }, [[], []]), SearchablePdfRefused);

    expect(error.message).toMatch(/more than 1 pages/);
    await few.close();
  });

  it('refuses a file above its size bound unread', async () => {
    const small = new PoolSearchablePdfWriter({ poolOptions: { size: 1 }, maxInputBytes: 100 });

    const error = await rejectionOf(small.write({ bytes: textPdf([['too long for the bound']]), mimeType: 'application/pdf' }, [[]]), SearchablePdfRefused);

    expect(error.message).toMatch(/larger than 100 bytes/);
    await small.close();
  });
});

/** A PNG turned clockwise by `degrees`, as a page lies on a scanner put in sideways or upside down. */
async function turnedPng(png: Uint8Array, degrees: 90 | 180 | 270): Promise<Uint8Array> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(png));
  const quarter = degrees !== 180;
  const canvas = createCanvas(quarter ? image.height : image.width, quarter ? image.width : image.height);
  const context = canvas.getContext('2d');
  context.translate(canvas.width / 2, canvas.height / 2);
  context.rotate((degrees * Math.PI) / 180);
  context.drawImage(image, -image.width / 2, -image.height / 2);
  return new Uint8Array(await canvas.encode('png'));
}

/** A JPEG of a scan, made by the canvas from the corpus's typewriter page. */
async function jpegOf(): Promise<Uint8Array> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(await readFile(path.join(OCR_CORPUS_DIR, 'typewriter.png')));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return new Uint8Array(await canvas.encode('jpeg', 85));
}

/** A baseline uncompressed grey TIFF of a PNG's pixels. */
async function tiffOf(png: Uint8Array): Promise<Uint8Array> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  const rgba = canvas.getContext('2d').getImageData(0, 0, image.width, image.height).data;
  const grey = Buffer.alloc(image.width * image.height);
  for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4]!;
  return tiff(image.width, image.height, [[258, 3, 1, 8], [259, 3, 1, 1], [262, 3, 1, 1]], grey, 300);
}

/** A TIFF holding the Group 4 strip of the corpus's ccitt.pdf, as a fax machine would store it. */
async function g4TiffFromCorpus(): Promise<{ tiff: Uint8Array; strip: Uint8Array }> {
  const [image] = (await imageStreams(await corpus('ccitt.pdf'))).filter((found) => found.filter === '/CCITTFaxDecode');
  const document = await PDFDocument.load(await corpus('ccitt.pdf'));
  const stream = document.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .find((object): object is PDFRawStream => object instanceof PDFRawStream && String(object.dict.get(PDFName.of('Filter'))) === '/CCITTFaxDecode')!;
  const width = Number(String(stream.dict.get(PDFName.of('Width'))));
  const height = Number(String(stream.dict.get(PDFName.of('Height'))));
  const parms = String(stream.dict.get(PDFName.of('DecodeParms')) ?? '');
  const blackIs1 = /BlackIs1 true/.test(parms);
  const strip = image!.contents;
  return { tiff: tiff(width, height, [[258, 3, 1, 1], [259, 3, 1, 4], [262, 3, 1, blackIs1 ? 0 : 1]], Buffer.from(strip), 300), strip };
}

/** A little-endian one-strip TIFF with the given extra tags (tag, type, count, value) and data. */
function tiff(width: number, height: number, tags: [number, number, number, number][], data: Buffer, dpi: number): Uint8Array {
  const entries: [number, number, number, number][] = [
    [256, 4, 1, width],
    [257, 4, 1, height],
    ...tags,
    [273, 4, 1, 0],
    [277, 3, 1, 1],
    [278, 4, 1, height],
    [279, 4, 1, data.length],
    [282, 5, 1, 0],
    [283, 5, 1, 0],
    [296, 3, 1, 2],
  ];
  entries.sort(([a], [b]) => a - b);
  const ifdSize = 2 + entries.length * 12 + 4;
  const rationalAt = 8 + ifdSize;
  const dataAt = rationalAt + 8;
  const header = Buffer.alloc(dataAt);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  header.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    header.writeUInt16LE(tag, at);
    header.writeUInt16LE(type, at + 2);
    header.writeUInt32LE(count, at + 4);
    const actual = tag === 273 ? dataAt : tag === 282 || tag === 283 ? rationalAt : value;
    if (type === 3) header.writeUInt16LE(actual, at + 8);
    else header.writeUInt32LE(actual, at + 8);
  });
  header.writeUInt32LE(dpi, rationalAt);
  header.writeUInt32LE(1, rationalAt + 4);
  return new Uint8Array(Buffer.concat([header, data]));
}
