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
import { degrees, PDFDocument, PDFNumber, PDFOperator, PDFOperatorNames as Ops, type PDFName, type PDFPage } from '@cantoo/pdf-lib';
import { rasterDimensions, type ImageFormat } from '../imaging/formats';
import { FileRefusal, type PlacedWord, type SearchablePdfJob } from '../imaging/jobs';
import { imagePages, pageSize } from './image-pages';
import { textLayer, type PageFrame, type TextLayer } from './invisible-text';
import { turnWord, uprightTurn } from './text-direction';

/**
 * Lays the words on the page; a page whose words run other than left to right (scanned sideways or upside down)
 * is turned upright first (its `/Rotate` grows by the turn), and its words with it.
 */
const layWords = (layer: TextLayer, page: PDFPage, words: readonly PlacedWord[]): void => {
  const turn = uprightTurn(words);
  if (turn !== 0) page.setRotation(degrees((page.getRotation().angle + turn) % 360));
  layer.add(page, frameOf(page), turn === 0 ? words : words.map((word) => turnWord(word, turn)));
};

/** Words from which the font's widths (about 140 bytes) cost less than they save (a byte a word or so). */
const PROPORTIONAL_FROM_WORDS = 200;

/** The words' layer for a document: Helvetica's widths for ASCII (glyphless-font.ts) once it has enough words. */
const layerOf = (document: PDFDocument, pages: SearchablePdfJob['pages']): TextLayer =>
  textLayer(document, { proportional: pages.reduce((sum, words) => sum + (words?.length ?? 0), 0) >= PROPORTIONAL_FROM_WORDS });

const frameOf = (page: PDFPage): PageFrame => {
  const box = page.getCropBox();
  const angle = ((page.getRotation().angle % 360) + 360) % 360;
  const rotation = ([0, 90, 180, 270] as const).find((right) => right === angle) ?? 0;
  return { box, rotation };
};

/**
 * Saved with object streams and a cross-reference stream, whatever the input's PDF version (its header becomes
 * 1.7): the font's dictionaries and the file's structure compressed, the layer's fixed cost on a small scan. A
 * PDF/A-1 file, whose part forbids them (pdf-lib refuses before writing anything), is saved without.
 */
const save = (document: PDFDocument): Promise<Uint8Array> =>
  document.save({ useObjectStreams: true }).catch((error: unknown) => {
    if (error instanceof Error && error.message.includes('PDF/A-1')) return document.save({ useObjectStreams: false });
    throw error;
  });

const fromPdf = async (job: SearchablePdfJob): Promise<Uint8Array> => {
  // Loaded whatever its encryption, then asked: pdf-lib's own refusal is an error class of its bundle.
  const document = await PDFDocument.load(job.bytes, { updateMetadata: false, throwOnInvalidObject: false, ignoreEncryption: true });
  if (document.isEncrypted) throw new FileRefusal('the PDF is encrypted');
  const pages = document.getPages();
  if (pages.length > job.maxPages) throw new FileRefusal(`the PDF has more than ${job.maxPages} pages`);
  if (pages.length !== job.pages.length) throw new FileRefusal(`the PDF has ${pages.length} pages where OCR read ${job.pages.length}`);
  const layer = layerOf(document, job.pages);
  pages.forEach((page, i) => {
    const words = job.pages[i];
    if (words?.length) layWords(layer, page, words);
  });
  return save(document);
};

const fromImage = async (job: SearchablePdfJob & { format: Exclude<ImageFormat, 'pdf'> }): Promise<Uint8Array> => {
  const images = await imagePages(job.bytes, job.format, rasterDimensions(job.bytes, job.format), job.maxPixels);
  if (images.length > job.maxPages) throw new FileRefusal(`the image has more than ${job.maxPages} pages`);
  if (images.length !== job.pages.length) throw new FileRefusal(`the image has ${images.length} pages where OCR read ${job.pages.length}`);
  const document = await PDFDocument.create({ updateMetadata: false });
  const layer = layerOf(document, job.pages);
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
    if (words?.length) layWords(layer, page, words);
  }
  return save(document);
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
