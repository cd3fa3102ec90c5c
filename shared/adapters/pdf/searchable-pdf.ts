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
import { PDFDocument, PDFNumber, PDFOperator, PDFOperatorNames as Ops, type PDFName, type PDFPage } from '@cantoo/pdf-lib';
import { rasterDimensions, type ImageFormat } from '../imaging/formats';
import { FileRefusal, type SearchablePdfJob } from '../imaging/jobs';
import { imagePages, pageSize } from './image-pages';
import { addInvisibleWords, embedGlyphlessFont, type PageFrame } from './invisible-text';

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
    if (words?.length) addInvisibleWords(document, page, font, frameOf(page), words);
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
    if (words?.length) addInvisibleWords(document, page, font, { box: { x: 0, y: 0, width, height }, rotation: 0 }, words);
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
