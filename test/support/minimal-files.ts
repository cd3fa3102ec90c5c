/** Small files built in memory, for tests that read file structure without a real document. */

/** The bytes of ASCII text. */
export const ascii = (text: string) => new TextEncoder().encode(text);
/** A PNG signature and a few bytes: a PNG to a sniffer, nothing to a decoder. */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** A minimal PDF whose page tree holds `pages` pages, written as plain objects. */
export const minimalPdf = (pages: number, extra = '') => {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  const pageObjects = Array.from(
    { length: pages },
    (_, i) => `${i + 3} 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]>> endobj\n`,
  ).join('');
  return ascii(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n` +
      `2 0 obj <</Type /Pages /Count ${pages} /Kids [${kids}]>> endobj\n` +
      `${pageObjects}trailer <</Root 1 0 R${extra}>>\n%%EOF\n`,
  );
};
