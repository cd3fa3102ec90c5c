import { jpegSize, pngSize } from '../image-headers';

/** The input formats the thumbnail renderer knows, recognised by their magic bytes. */
export type ImageFormat = 'pdf' | 'png' | 'jpeg' | 'tiff' | 'webp';

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** PDF readers accept the header anywhere in the first KB (some producers put junk before it). */
const PDF_HEADER_WINDOW = 1024;

const hasPdfHeader = (bytes: Uint8Array): boolean => {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PDF_HEADER_WINDOW));
  return head.includes('%PDF-', 0, 'latin1');
};

/**
 * The format of a file, from its content only (the declared MIME type of an upload is not trusted), or
 * undefined when it is none of the supported ones.
 */
export const sniffFormat = (bytes: Uint8Array): ImageFormat | undefined => {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('II*\0')) || startsWith(bytes, ascii('MM\0*'))) return 'tiff';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  if (hasPdfHeader(bytes)) return 'pdf';
  return undefined;
};

/**
 * Width and height of a WebP image from its header (VP8, VP8L or VP8X chunk), read before anything is
 * decoded; undefined when the header is malformed.
 */
export const webpDimensions = (bytes: Uint8Array): { width: number; height: number } | undefined => {
  if (bytes.length < 30) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const uint24 = (at: number): number => view.getUint16(at, true) | (view.getUint8(at + 2) << 16);
  switch (chunk) {
    case 'VP8X':
      return { width: uint24(24) + 1, height: uint24(27) + 1 };
    case 'VP8L': {
      if (view.getUint8(20) !== 0x2f) return undefined;
      const bits = view.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8 ': {
      if (!startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return undefined;
      return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    }
    default:
      return undefined;
  }
};

/**
 * False when a PNG has no IEND chunk or a JPEG no end-of-image marker: the file was cut short. Decoders fill
 * what is missing with blank pixels (a PNG cut after its header renders as an empty page), which would hide
 * an interrupted upload behind a plausible thumbnail.
 */
export const looksComplete = (bytes: Uint8Array, format: ImageFormat): boolean => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') return buffer.includes('IEND', 8, 'latin1');
  if (format === 'jpeg') return buffer.includes(Buffer.from([0xff, 0xd9]), 2);
  return true;
};

/** Width and height from a TIFF's first image file directory (tags 256 and 257). */
const tiffDimensions = (bytes: Uint8Array): { width: number; height: number } | undefined => {
  if (bytes.length < 8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > bytes.length) return undefined;
  const entries = view.getUint16(ifd, little);
  let width: number | undefined;
  let height: number | undefined;
  for (let i = 0; i < entries && ifd + 2 + i * 12 + 12 <= bytes.length; i++) {
    const at = ifd + 2 + i * 12;
    const tag = view.getUint16(at, little);
    const type = view.getUint16(at + 2, little);
    const value = type === 3 ? view.getUint16(at + 8, little) : view.getUint32(at + 8, little);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return width !== undefined && height !== undefined ? { width, height } : undefined;
};

/**
 * Width and height of a raster image from its header, read before anything is decoded; undefined when the
 * header is malformed.
 */
export const rasterDimensions = (bytes: Uint8Array, format: Exclude<ImageFormat, 'pdf'>): { width: number; height: number } | undefined => {
  switch (format) {
    case 'png':
      return pngSize(bytes);
    case 'jpeg':
      return jpegSize(bytes);
    case 'tiff':
      return tiffDimensions(bytes);
    case 'webp':
      return webpDimensions(bytes);
  }
};
