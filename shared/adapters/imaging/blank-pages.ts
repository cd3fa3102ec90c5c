/**
 * Which pages of a PDF are blank paper, from their pixels drawn small: the blank rule of the per-page decision
 * (`blankPixels`, page-texts.ts) for an OCR engine that does not draw the pages itself and is paid for each one it
 * is sent (Textract). A scanned page is drawn from its images reduced as they are read (image-only-page.ts). Only
 * a page drawn so can be called blank: a page that draws more than images goes to the engine, and so does one
 * whose images could not be decoded here (pdf.js leaves an image it cannot decode undrawn, which would look like
 * blank paper). Runs in the imaging worker, within its time and memory bounds.
 */
import { blankPixels } from '../../domain/ocr/page-texts';
import { checkPageContent, loadObjects, type SizeCache } from './content-budget';
import { drawImageOnlyPage } from './image-only-page';
import { FileRefusal, type BlankPagesJob } from './jobs';
import { multiply, type Matrix } from './page-images';
import { boundedCanvas, openPdf, releaseCanvas, type PdfDocument, type PdfPage } from './pdf-engine';
import type { PdfObjects } from './content-budget';

/**
 * The page's grey levels (0..255, luminance) drawn at `job.dpi` on white; null when a bound keeps it undrawn or it
 * is not a page of images alone, decoded here.
 */
const greyPixels = async (page: PdfPage, objects: PdfObjects, job: BlankPagesJob, sizes: SizeCache): Promise<Uint8Array | null> => {
  try {
    const images = checkPageContent(objects, page.ref, page.pageNumber, job.maxContentBytes, sizes);
    if (images.reduce((sum, { width, height }) => sum + width * height, 0) > job.maxPixels) return null;
  } catch (error) {
    if (error instanceof FileRefusal) return null;
    throw error;
  }
  const natural = page.getViewport({ scale: 1 });
  const scale = job.dpi / 72;
  const size = { width: Math.max(1, Math.round(natural.width * scale)), height: Math.max(1, Math.round(natural.height * scale)) };
  const canvas = boundedCanvas(size.width, size.height);
  try {
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size.width, size.height);
    const toCanvas: Matrix = [scale, 0, 0, scale, 0, 0];
    if (!(await drawImageOnlyPage(page, objects, context, multiply(toCanvas, natural.transform as Matrix), size))) return null;
    const { data } = context.getImageData(0, 0, size.width, size.height);
    const grey = new Uint8Array(size.width * size.height);
    for (let i = 0; i < grey.length; i++) grey[i] = (data[i * 4]! * 299 + data[i * 4 + 1]! * 587 + data[i * 4 + 2]! * 114) / 1000;
    return grey;
  } finally {
    releaseCanvas(canvas);
  }
};

/**
 * For each of `job.pages`, whether it is blank paper. A page not drawn (a bound: its images' pixels, its content's
 * size; or more than images on it) is answered not blank: the engine reads it, under its own bounds. Throws when
 * the PDF cannot be opened.
 */
export const blankPages = async (job: BlankPagesJob): Promise<boolean[]> => {
  let document: PdfDocument | undefined;
  try {
    document = await openPdf(job.bytes, job.maxPixels);
    const objects = await loadObjects(job.bytes);
    const sizes: SizeCache = new Map();
    const blank: boolean[] = [];
    for (const number of job.pages) {
      if (!(Number.isInteger(number) && number >= 1 && number <= document.numPages)) throw new FileRefusal(`the PDF has no page ${number}`);
      const page = await document.getPage(number);
      const grey = await greyPixels(page, objects, job, sizes);
      page.cleanup();
      blank.push(grey !== null && blankPixels(grey, 255));
    }
    return blank;
  } finally {
    await document?.destroy().catch(() => undefined);
  }
};
