import { PDFDocument } from '@cantoo/pdf-lib';
import { FileRefusal, type PagePdfJob } from './jobs';

/**
 * Each of the job's pages as a PDF of its own, copied by pdf-lib (MIT) with the resources it uses from one parse of
 * the file: no page is drawn or re-encoded, so an OCR engine reads it as it would read the page in the whole file.
 * Runs in the imaging worker, within its time and memory bounds.
 */
export const pagePdfs = async ({ bytes, pages }: PagePdfJob): Promise<Uint8Array[]> => {
  const source = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
  const copies: Uint8Array[] = [];
  for (const page of pages) {
    if (!(Number.isInteger(page) && page >= 1 && page <= source.getPageCount())) throw new FileRefusal(`the PDF has no page ${page}`);
    const target = await PDFDocument.create({ updateMetadata: false });
    const [copy] = await target.copyPages(source, [page - 1]);
    target.addPage(copy!);
    copies.push(await target.save());
  }
  return copies;
};
