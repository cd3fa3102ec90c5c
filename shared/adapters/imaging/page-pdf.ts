import { PDFDocument } from '@cantoo/pdf-lib';
import { FileRefusal, type PagePdfJob } from './jobs';

/**
 * A PDF holding only page `page` of the job's PDF, copied by pdf-lib (MIT) with the resources it uses: no page
 * is drawn or re-encoded, so an OCR engine reads it as it would read the page in the whole file. Runs in the
 * imaging worker, within its time and memory bounds.
 */
export const pagePdf = async ({ bytes, page }: PagePdfJob): Promise<Uint8Array> => {
  const source = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
  if (!(Number.isInteger(page) && page >= 1 && page <= source.getPageCount())) throw new FileRefusal(`the PDF has no page ${page}`);
  const target = await PDFDocument.create({ updateMetadata: false });
  const [copy] = await target.copyPages(source, [page - 1]);
  target.addPage(copy!);
  return target.save();
};
