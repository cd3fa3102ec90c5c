import { deflateRawSync, deflateSync, constants as zlibConstants } from 'node:zlib';
import { pngImage } from './fixtures';

/**
 * Hostile files, generated in code: decompression bombs, malformed page trees, lying headers, truncated files
 * and polyglots. Each is small on disk and cheap to make (the generator never holds the inflated data), and
 * each is something a reader must refuse or survive within bounded time and memory.
 */

// ---- a minimal PDF writer ----------------------------------------------------------------------------------

interface PdfObject {
  /** The dictionary or value, without the stream. */
  body: string;
  stream?: Buffer;
}

/**
 * A PDF of the given objects (numbered from 1, object 1 the catalog), with a correct xref table, so that any
 * failure to read it comes from what the objects say, not from a broken file structure.
 */
export const pdfFile = (objects: readonly PdfObject[]): Buffer => {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const push = (part: Buffer): void => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((object, index) => {
    offsets.push(length);
    if (object.stream) {
      push(Buffer.from(`${index + 1} 0 obj\n${object.body}\nstream\n`, 'latin1'));
      push(object.stream);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else {
      push(Buffer.from(`${index + 1} 0 obj\n${object.body}\nendobj\n`, 'latin1'));
    }
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`)];
  push(Buffer.from(`${xref.join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
};

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** A one-page PDF whose page draws `content` (already encoded with `filters`), Helvetica as /F1. */
const onePagePdf = (content: Buffer, filters: string[] = [], mediaBox = '[0 0 612 792]'): Buffer =>
  pdfFile([
    { body: '<< /Type /Catalog /Pages 2 0 R >>' },
    { body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { body: `<< /Type /Page /Parent 2 0 R /MediaBox ${mediaBox} /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>` },
    { body: `<< /Length ${content.length}${filters.length ? ` /Filter [${filters.map((f) => `/${f}`).join(' ')}]` : ''} >>`, stream: content },
    { body: FONT },
  ]);

// ---- deflate bombs -----------------------------------------------------------------------------------------

const ADLER_BASE = 65521;

const adler32 = (bytes: Uint8Array): number => {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % ADLER_BASE;
    b = (b + a) % ADLER_BASE;
  }
  return (b * 65536 + a) >>> 0;
};

/** zlib's adler32_combine: the checksum of A followed by B from the checksums of both and B's length. */
const adler32Combine = (adlerA: number, adlerB: number, lengthB: number): number => {
  const rem = lengthB % ADLER_BASE;
  let sum1 = adlerA & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (adlerB & 0xffff) + ADLER_BASE - 1;
  sum2 += ((adlerA >>> 16) & 0xffff) + ((adlerB >>> 16) & 0xffff) + ADLER_BASE - rem;
  sum1 %= ADLER_BASE;
  sum1 %= ADLER_BASE;
  sum2 %= ADLER_BASE;
  sum2 %= ADLER_BASE;
  return (sum2 * 65536 + sum1) >>> 0;
};

/**
 * A zlib stream that inflates to `pattern` repeated until `inflatedBytes` (rounded up to whole chunks of about
 * 1 MiB), made without ever holding the inflated data: one chunk is compressed with a full flush (byte-aligned,
 * no reference to earlier data), so copies of its compressed form can be laid end to end; the checksum of the
 * whole is combined from the chunk's. About 1000:1, deflate's limit.
 */
export const deflateBomb = (pattern: string, inflatedBytes: number): Buffer => {
  const unit = Buffer.from(pattern, 'latin1');
  const chunk = Buffer.alloc(Math.ceil((1 << 20) / unit.length) * unit.length);
  for (let at = 0; at < chunk.length; at += unit.length) unit.copy(chunk, at);
  const compressedChunk = deflateRawSync(chunk, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const copies = Math.max(1, Math.ceil(inflatedBytes / chunk.length));
  const chunkAdler = adler32(chunk);
  let adler = 1;
  for (let i = 0; i < copies; i++) adler = adler32Combine(adler, chunkAdler, chunk.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler);
  const header = Buffer.from([0x78, 0xda]);
  const finalBlock = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([header, ...Array.from({ length: copies }, () => compressedChunk), finalBlock, trailer]);
};

/** Text drawing operators: inflated, every glyph lands in a text extractor's output. */
const TEXT_OPERATORS = 'BT /F1 12 Tf 72 720 Td (bomb bomb bomb bomb bomb bomb) Tj ET\n';

/**
 * One page whose content stream (FlateDecode) inflates to `inflatedBytes` of text drawing: issue 12's 4.5 MB
 * file inflated to 4.7 GB and held the event loop for 45 s. The default is 1 GiB in about 1 MB.
 */
export const flateBombPdf = (inflatedBytes = 1 << 30, pattern = TEXT_OPERATORS): Buffer =>
  onePagePdf(deflateBomb(pattern, inflatedBytes), ['FlateDecode']);

/** Issue 12's file: 4.5 MB of FlateDecode whitespace that inflates to 4.7 GB. */
export const issue12BombPdf = (): Buffer => flateBombPdf(4.7e9, ' '.repeat(64));

/**
 * A page of large overlapping fills, 16 MiB of them (within the content bound): slow to render, about two
 * minutes on one core, while being a small and valid file. The stand-in for a render that is stuck.
 */
export const slowDrawingPdf = (): Buffer => flateBombPdf(16 << 20, '10 10 m 600 780 l 590 12 l h f\n');

/**
 * The bomb compressed twice ([/FlateDecode /FlateDecode]): the copies of the compressed chunk compress again,
 * so a few KB inflate to `inflatedBytes`.
 */
export const doubleFlateBombPdf = (inflatedBytes = 1 << 30): Buffer =>
  onePagePdf(deflateSync(deflateBomb(TEXT_OPERATORS, inflatedBytes), { level: 9 }), ['FlateDecode', 'FlateDecode']);

// ---- page trees --------------------------------------------------------------------------------------------

/** A page tree whose node lists itself among its kids: a naive walk never ends. */
export const pageTreeLoopPdf = (): Buffer =>
  pdfFile([
    { body: '<< /Type /Catalog /Pages 2 0 R >>' },
    { body: '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>' },
    { body: '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>' },
  ]);

/** A page tree `depth` levels deep, one page at the bottom: a recursive walk exhausts its stack. */
export const deepPageTreePdf = (depth = 50_000): Buffer => {
  const objects: PdfObject[] = [{ body: '<< /Type /Catalog /Pages 2 0 R >>' }];
  for (let level = 0; level < depth; level++) {
    const number = level + 2;
    objects.push({ body: `<< /Type /Pages /Kids [${number + 1} 0 R] /Count 1${level ? ` /Parent ${number - 1} 0 R` : ''} >>` });
  }
  const content = Buffer.from('BT /F1 24 Tf 72 720 Td (the bottom of a deep page tree) Tj ET');
  objects.push({ body: `<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 612 792] /Contents ${depth + 3} 0 R >>` });
  objects.push({ body: `<< /Length ${content.length} >>`, stream: content });
  return pdfFile(objects);
};

// ---- lying dimensions ----------------------------------------------------------------------------------------

/** A page that declares itself a billion points wide and high. */
export const hugePagePdf = (): Buffer =>
  onePagePdf(Buffer.from('BT /F1 24 Tf 72 720 Td (a very large page) Tj ET'), [], '[0 0 1000000000 1000000000]');

/** A page drawing an image XObject that declares 1,000,000 x 1,000,000 pixels of 8-bit RGB in 1 KB of data. */
export const hugeImagePdf = (): Buffer => {
  const data = deflateSync(Buffer.alloc(1024));
  const content = Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q');
  return pdfFile([
    { body: '<< /Type /Catalog /Pages 2 0 R >>' },
    { body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>' },
    { body: `<< /Length ${content.length} >>`, stream: content },
    {
      body: `<< /Type /XObject /Subtype /Image /Width 1000000 /Height 1000000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>`,
      stream: data,
    },
  ]);
};

/** A valid PNG whose header then claims `side` x `side` pixels (the CRC fixed), its data a tiny 1x1 image's. */
export const hugeDimensionsPng = (side = 100_000): Buffer => {
  const png = Buffer.from(pngImage(1, 1));
  // IHDR data starts after the signature (8), the chunk length (4) and type (4).
  png.writeUInt32BE(side, 16);
  png.writeUInt32BE(side, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
};

const crc32 = (bytes: Uint8Array): number => {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
};

// ---- truncation and polyglots ----------------------------------------------------------------------------------

/** A text PDF cut in the middle of its content stream: no endstream, no xref, no trailer. */
export const truncatedPdf = (): Buffer => {
  const whole = onePagePdf(Buffer.from(`BT /F1 12 Tf 72 720 Td ${'(a line of text that is cut short) Tj 0 -14 Td '.repeat(40)}ET`));
  return whole.subarray(0, whole.indexOf('endstream') - 200);
};

/** A flate bomb cut short: the deflate data ends mid-stream, so an inflater runs until its input is gone. */
export const truncatedFlateBombPdf = (inflatedBytes = 256 << 20): Buffer => {
  const bomb = deflateBomb(TEXT_OPERATORS, inflatedBytes);
  return onePagePdf(bomb.subarray(0, Math.floor(bomb.length / 2)), ['FlateDecode']);
};

/**
 * A ZIP archive whose one stored entry is a PDF: it starts `PK`, and `%PDF-` appears within its first KB, so
 * a reader that looks for the PDF header there takes it for a PDF.
 */
export const pdfZipPolyglot = (): Buffer => {
  const pdf = onePagePdf(Buffer.from('BT /F1 24 Tf 72 720 Td (inside a zip archive) Tj ET'));
  const name = Buffer.from('document.pdf');
  const crc = crc32(pdf);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(pdf.length, 18);
  local.writeUInt32LE(pdf.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(pdf.length, 20);
  central.writeUInt32LE(pdf.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralAt = local.length + name.length + pdf.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, name, pdf, central, name, end]);
};

/** A PNG carrying a whole flate-bomb PDF in an ancillary chunk: a PNG by its magic, a PDF to a lax reader. */
export const pngPdfPolyglot = (): Buffer => {
  const png = Buffer.from(pngImage(32, 32));
  const pdf = flateBombPdf(64 << 20);
  const type = Buffer.from('pdFz');
  const chunk = Buffer.alloc(12 + pdf.length);
  chunk.writeUInt32BE(pdf.length, 0);
  type.copy(chunk, 4);
  pdf.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(Buffer.concat([type, pdf])), 8 + pdf.length);
  // After IHDR (8 + 25 bytes), before the image data.
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
};

/** Every hostile file with a name, for suites that run them all through the same checks. */
export const hostileFiles = (): { name: string; bytes: Buffer }[] => [
  { name: 'flate-bomb.pdf', bytes: flateBombPdf() },
  { name: 'issue-12-bomb.pdf', bytes: issue12BombPdf() },
  { name: 'double-flate-bomb.pdf', bytes: doubleFlateBombPdf() },
  { name: 'truncated-flate-bomb.pdf', bytes: truncatedFlateBombPdf() },
  { name: 'page-tree-loop.pdf', bytes: pageTreeLoopPdf() },
  { name: 'deep-page-tree.pdf', bytes: deepPageTreePdf() },
  { name: 'huge-page.pdf', bytes: hugePagePdf() },
  { name: 'huge-image.pdf', bytes: hugeImagePdf() },
  { name: 'huge-dimensions.png', bytes: hugeDimensionsPng() },
  { name: 'truncated.pdf', bytes: truncatedPdf() },
  { name: 'pdf-in-zip.pdf', bytes: pdfZipPolyglot() },
  { name: 'pdf-in-png.png', bytes: pngPdfPolyglot() },
];
