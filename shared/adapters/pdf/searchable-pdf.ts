/**
 * Writes a searchable PDF (runs in an imaging worker, within its time and memory bounds): the document's pages
 * as they are, with an invisible text layer at the words OCR read (invisible-text.ts).
 *
 * - A PDF's pages are kept, content, images (CCITT, JBIG2, JPEG 2000 and the rest) and fonts untouched, by
 *   pdf-lib (MIT), which rewrites the file's structure only; a page with words gets them over its content in the
 *   page's upright frame, so a page with a `/Rotate` shows its text where its image shows the words.
 * - An image file becomes one page per image (image-pages.ts), at its stated resolution.
 * - An encrypted PDF is refused, as OCR refuses it.
 */
import { degrees, PDFDocument, PDFNumber, PDFOperator, PDFOperatorNames as Ops, type PDFName, type PDFPage, type PDFRef } from '@cantoo/pdf-lib';
import { rasterDimensions, type ImageFormat } from '../imaging/formats';
import { FileRefusal, type PlacedWord, type SearchablePdfJob } from '../imaging/jobs';
import { imagePages, pageSize } from './image-pages';
import { addInvisibleWords, embedGlyphlessFont, type PageFrame } from './invisible-text';
import { turnWord, uprightTurn } from './text-direction';

/**
 * Lays the words on the page; a page whose words run other than left to right (scanned sideways or upside down)
 * is turned upright first (its `/Rotate` grows by the turn), and its words with it.
 */
const layWords = (document: PDFDocument, page: PDFPage, font: PDFRef, words: readonly PlacedWord[]): void => {
  const turn = uprightTurn(words);
  if (turn !== 0) page.setRotation(degrees((page.getRotation().angle + turn) % 360));
  addInvisibleWords(document, page, font, frameOf(page), turn === 0 ? words : words.map((word) => turnWord(word, turn)));
};

const frameOf = (page: PDFPage): PageFrame => {
  const box = page.getCropBox();
  const angle = ((page.getRotation().angle % 360) + 360) % 360;
  const rotation = ([0, 90, 180, 270] as const).find((right) => right === angle) ?? 0;
  return { box, rotation };
};

const fromPdf = async (job: SearchablePdfJob): Promise<Uint8Array> => {
  // Loaded whatever its encryption, then asked: pdf-lib's own refusal is an error class of its bundle.
  const document = await PDFDocument.load(job.bytes, { updateMetadata: false, throwOnInvalidObject: false, ignoreEncryption: true });
  if (document.isEncrypted) throw new FileRefusal('the PDF is encrypted');
  const pages = document.getPages();
  if (pages.length > job.maxPages) throw new FileRefusal(`the PDF has more than ${job.maxPages} pages`);
  if (pages.length !== job.pages.length) throw new FileRefusal(`the PDF has ${pages.length} pages where OCR read ${job.pages.length}`);
  const font = embedGlyphlessFont(document);
  pages.forEach((page, i) => {
    const words = job.pages[i];
    if (words?.length) layWords(document, page, font, words);
  });
  return document.save();
};

const fromImage = async (job: SearchablePdfJob & { format: Exclude<ImageFormat, 'pdf'> }): Promise<Uint8Array> => {
  const images = await imagePages(job.bytes, job.format, rasterDimensions(job.bytes, job.format), job.maxPixels);
  if (images.length > job.maxPages) throw new FileRefusal(`the image has more than ${job.maxPages} pages`);
  if (images.length !== job.pages.length) throw new FileRefusal(`the image has ${images.length} pages where OCR read ${job.pages.length}`);
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = embedGlyphlessFont(document);
  for (const [i, image] of images.entries()) {
    const { width, height } = pageSize(image);
    const page = document.addPage([width, height]);
    const embedded = await image.embed(document);
    if ('image' in embedded) {
      page.drawImage(embedded.image, { x: 0, y: 0, width, height });
    } else {
      const name = page.node.newXObject('Scan', embedded.ref);
      page.pushOperators(...drawXObject(name, width, height));
    }
    const words = job.pages[i];
    if (words?.length) layWords(document, page, font, words);
  }
  return document.save();
};

const drawXObject = (name: PDFName, width: number, height: number): PDFOperator[] => [
  PDFOperator.of(Ops.PushGraphicsState),
  PDFOperator.of(Ops.ConcatTransformationMatrix, [width, 0, 0, height, 0, 0].map((n) => PDFNumber.of(n))),
  PDFOperator.of(Ops.DrawObject, [name]),
  PDFOperator.of(Ops.PopGraphicsState),
];

/** The searchable PDF of a file, or a {@link FileRefusal} saying why it cannot be written. */
export const writeSearchablePdf = (job: SearchablePdfJob): Promise<Uint8Array> =>
  job.format === 'pdf' ? fromPdf(job) : fromImage({ ...job, format: job.format });
