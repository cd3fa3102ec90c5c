/**
 * What the Textract engine reads of a file's bytes before and after calling Textract, without rendering it: the
 * page count of a PDF or TIFF (which API to call) and whether a PDF is encrypted (why Textract refused it).
 */
import { inflateSync } from 'node:zlib';

/** Bounds the inflated size of one PDF object stream while counting pages, so a deflate bomb cannot hurt. */
const MAX_OBJECT_STREAM_BYTES = 16 * 1024 * 1024;

const latin1 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/**
 * Whether a PDF names an /Encrypt dictionary. The trailer (or cross-reference stream) that does is at the end of
 * the file, or also at the start when the file is linearized; the middle is not read, so that a 500 MB file
 * costs no more than a small one.
 */
export const encryptedPdf = (mimeType: string, bytes: Uint8Array | null): boolean => {
  // A file too large to read here is judged by Textract's message alone.
  if (mimeType !== 'application/pdf' || !bytes) return false;
  const edge = 64 * 1024;
  const ends =
    bytes.byteLength <= 2 * edge ? [bytes] : [bytes.subarray(0, edge), bytes.subarray(bytes.byteLength - edge)];
  return ends.some((part) => /\/Encrypt\b/.test(latin1(part)));
};

/** Pages of a PDF or TIFF, from its bytes: more than one goes to Textract's asynchronous API. */
export const countPages = (bytes: Uint8Array, mimeType: string): number | null =>
  mimeType === 'application/pdf' ? countPdfPages(bytes) : countTiffPages(bytes);

/**
 * The number of page objects in a PDF, read from the bytes without rendering: `/Type /Page` dictionaries (not
 * `/Pages`), both in the file body and inside compressed object streams (PDF 1.5+ keeps most dictionaries
 * there, e.g. every page of the multi-page corpus file). Old revisions left by incremental updates may be
 * counted too; overcounting only sends a one-page PDF to the asynchronous API, which reads it as well.
 *
 * Returns 0 when a page tree is found with no page in it, and null when the bytes show no page tree at all
 * (not a PDF, or one whose objects are encrypted): Textract then decides.
 */
export const countPdfPages = (bytes: Uint8Array): number | null => {
  const texts = [latin1(bytes)];
  const objectStream = /\/Type\s*\/ObjStm\b/g;
  const body = texts[0] ?? '';
  for (let match = objectStream.exec(body); match; match = objectStream.exec(body)) {
    const inflated = inflateObjectStream(bytes, body, match.index);
    if (inflated) texts.push(inflated);
  }

  let pages = 0;
  let pageTree = false;
  for (const text of texts) {
    pages += text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
    pageTree ||= /\/Type\s*\/Pages\b/.test(text);
  }
  return pages > 0 ? pages : pageTree ? 0 : null;
};

/** The content of the FlateDecode stream whose dictionary contains `at`, or null. */
const inflateObjectStream = (bytes: Uint8Array, text: string, at: number): string | null => {
  const streamKeyword = text.indexOf('stream', at);
  const dictionaryEnd = text.lastIndexOf('>>', streamKeyword);
  if (streamKeyword < 0 || dictionaryEnd < at) return null;
  if (!/\/FlateDecode\b/.test(text.slice(text.lastIndexOf('<<', at), dictionaryEnd))) return null;
  let start = streamKeyword + 'stream'.length;
  if (text[start] === '\r') start++;
  if (text[start] === '\n') start++;
  const end = text.indexOf('endstream', start);
  if (end < 0) return null;
  try {
    return latin1(inflateSync(bytes.subarray(start, end), { maxOutputLength: MAX_OBJECT_STREAM_BYTES }));
  } catch {
    // Truncated, encrypted or oversized streams are simply not counted.
    return null;
  }
};

/** The number of images (IFDs) in a TIFF, following the chain of IFD offsets; null when it is not a TIFF. */
export const countTiffPages = (bytes: Uint8Array): number | null => {
  if (bytes.byteLength < 8) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = view.getUint16(0);
  const little = order === 0x4949;
  if ((order !== 0x4949 && order !== 0x4d4d) || view.getUint16(2, little) !== 42) return null;

  const seen = new Set<number>();
  let offset = view.getUint32(4, little);
  while (offset !== 0) {
    // A loop in the chain or an offset past the end is a broken file: stop at what was read.
    if (seen.has(offset) || offset + 2 > bytes.byteLength) break;
    seen.add(offset);
    const entries = view.getUint16(offset, little);
    const next = offset + 2 + entries * 12;
    if (next + 4 > bytes.byteLength) break;
    offset = view.getUint32(next, little);
  }
  return seen.size;
};
