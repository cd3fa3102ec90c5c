import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

/** A page of a {@link mixedPdf}: lines of real text (a text layer), a PNG scan (no text layer), or nothing. */
export type MixedPage = { text: readonly string[] } | { png: Uint8Array; dpi?: number } | { blank: true };

/**
 * A US Letter PDF whose pages are of several kinds, as born-digital documents with a scanned page in them are:
 * text pages drawn in Helvetica, scans drawn as one image filling the page (at `dpi`, 300 by default, so the OCR
 * engine's raster is the image's own pixels) and blank pages. Written by pdf-lib (MIT).
 */
export async function mixedPdf(pages: readonly MixedPage[]): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const page of pages) {
    if ('png' in page) {
      const image = await document.embedPng(page.png);
      const scale = 72 / (page.dpi ?? 300);
      const drawn = document.addPage([image.width * scale, image.height * scale]);
      drawn.drawImage(image, { x: 0, y: 0, width: image.width * scale, height: image.height * scale });
    } else {
      const drawn = document.addPage([612, 792]);
      if ('text' in page) page.text.forEach((line, i) => drawn.drawText(line, { x: 72, y: 720 - i * 18, size: 14, font }));
    }
  }
  return Buffer.from(await document.save());
}
