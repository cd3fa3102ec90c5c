/**
 * Page sizes and pages read from image headers, before anything is decoded: the OCR engine's and the imaging
 * workers' bounds are checked on them.
 */

export interface Size {
  width: number;
  height: number;
}

export const pngSize = (bytes: Uint8Array): Size | undefined => {
  if (bytes.length < 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
};

/** Start-of-frame markers carry the size; C4 (Huffman table), C8 (reserved) and CC (arithmetic table) do not. */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

/** A JPEG's frame header, and what came before it that changes how the image is drawn. */
export interface JpegFrame extends Size {
  components: number;
  /** The start-of-frame marker: C0 baseline, C1 extended, C2 progressive, others lossless or arithmetic. */
  frameMarker: number;
  /** An Exif block came first: it may carry an orientation that a decoder applies and PDF readers do not. */
  exif: boolean;
}

/** Walks a JPEG's markers up to its frame header, without decoding anything. */
export const jpegFrame = (bytes: Uint8Array): JpegFrame | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  let exif = false;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (isStartOfFrame(marker)) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7), components: bytes[at + 9]!, frameMarker: marker, exif };
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // image data or the end, and no frame yet
    if (marker === 0xe1 && String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === 'Exif') exif = true;
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
};

export const jpegSize = (bytes: Uint8Array): Size | undefined => {
  const frame = jpegFrame(bytes);
  return frame && { width: frame.width, height: frame.height };
};

export interface TiffLayout {
  littleEndian: boolean;
  /** File offset of each page's IFD, in order. */
  ifds: number[];
  sizes: Size[];
}

/**
 * Walks a classic TIFF's chain of image file directories (one per page), reading each page's size from its
 * tags. Stops after `maxPages + 1` pages (enough to refuse the file) and on a loop in the chain.
 */
export const tiffLayout = (bytes: Uint8Array, maxPages: number): TiffLayout | undefined => {
  if (bytes.length < 8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const littleEndian = bytes[0] === 0x49;
  const ifds: number[] = [];
  const sizes: Size[] = [];
  const seen = new Set<number>();
  let ifd = view.getUint32(4, littleEndian);
  while (ifd !== 0 && ifds.length <= maxPages) {
    if (seen.has(ifd) || ifd + 2 > bytes.length) return undefined;
    seen.add(ifd);
    const count = view.getUint16(ifd, littleEndian);
    const next = ifd + 2 + count * 12;
    if (next + 4 > bytes.length) return undefined;
    const size: Partial<Size> = {};
    for (let entry = ifd + 2; entry < next; entry += 12) {
      const tag = view.getUint16(entry, littleEndian);
      if (tag !== 256 && tag !== 257) continue;
      const type = view.getUint16(entry + 2, littleEndian);
      const value = type === 3 ? view.getUint16(entry + 8, littleEndian) : view.getUint32(entry + 8, littleEndian);
      if (tag === 256) size.width = value;
      else size.height = value;
    }
    if (size.width === undefined || size.height === undefined) return undefined;
    ifds.push(ifd);
    sizes.push({ width: size.width, height: size.height });
    ifd = view.getUint32(next, littleEndian);
  }
  return { littleEndian, ifds, sizes };
};

/**
 * Page `index` of a multi-page TIFF as a TIFF file of its own: the same bytes (every offset in a TIFF is
 * absolute, so nothing moves) with the header pointing at that page's directory and the chain cut after it.
 */
export const tiffPage = (bytes: Uint8Array, layout: TiffLayout, index: number): Uint8Array => {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  const ifd = layout.ifds[index]!;
  view.setUint32(4, ifd, layout.littleEndian);
  view.setUint32(ifd + 2 + view.getUint16(ifd, layout.littleEndian) * 12, 0, layout.littleEndian);
  return copy;
};
