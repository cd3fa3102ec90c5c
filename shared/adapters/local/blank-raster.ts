/**
 * The blank rule (`blankPixels`, page-texts.ts) on the greyscale raster pdftoppm writes for OCR (binary PGM), run
 * before tesseract is started for the page: a scanned blank page draws an image, and only its pixels tell that the
 * image is empty paper.
 */
import { blankPixels } from '../../domain/ocr/page-texts';

export { BLANK_MAX_INK_SHARE } from '../../domain/ocr/page-texts';

/** A binary greyscale PGM (P5, maxval up to 255): its size and pixels; null for anything else. */
export const parsePgm = (bytes: Uint8Array): { width: number; height: number; maxval: number; pixels: Uint8Array } | null => {
  // Header: "P5", then width, height, maxval as ASCII decimals separated by whitespace (comments after #), then
  // one whitespace byte and the pixels.
  if (bytes[0] !== 0x50 || bytes[1] !== 0x35) return null;
  const fields: number[] = [];
  let at = 2;
  while (fields.length < 3 && at < bytes.length) {
    const byte = bytes[at]!;
    if (byte === 0x23) {
      while (at < bytes.length && bytes[at] !== 0x0a) at++;
    } else if (byte >= 0x30 && byte <= 0x39) {
      let value = 0;
      while (at < bytes.length && bytes[at]! >= 0x30 && bytes[at]! <= 0x39) value = value * 10 + (bytes[at++]! - 0x30);
      fields.push(value);
      continue;
    } else if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return null;
    at++;
  }
  const [width = 0, height = 0, maxval = 0] = fields;
  if (!(width > 0 && height > 0 && maxval > 0 && maxval < 256)) return null;
  const start = at + 1;
  if (bytes.length < start + width * height) return null;
  return { width, height, maxval, pixels: bytes.subarray(start, start + width * height) };
};

/** True when the PGM's pixels are all but uniform (`blankPixels`); false for what is not a greyscale PGM. */
export const blankPgm = (bytes: Uint8Array): boolean => {
  const image = parsePgm(bytes);
  return image !== null && blankPixels(image.pixels, image.maxval);
};
