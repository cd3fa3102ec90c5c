/**
 * Whether a rendered page is blank, from its pixels: the check a scanned blank page needs, since its PDF draws an
 * image and only the pixels tell that the image is empty paper. Run on the greyscale raster pdftoppm writes for
 * OCR (binary PGM), before tesseract is started for it.
 *
 * A page is blank when almost every pixel is within 1/8 of the grey range of the page's most common value (its
 * paper, whatever its shade): at most {@link BLANK_MAX_INK_SHARE} of the pixels differ by more, about 170 pixels
 * of a 300-dpi Letter page, where one 12-pt word draws about a thousand. Light grey text on white differs by more
 * than 1/8 and counts as ink; scanner speckle above the share makes the page read (and give no text), as before.
 */

/** Share of a page's pixels that may stand apart from its paper for it to be blank. */
export const BLANK_MAX_INK_SHARE = 0.00002;

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

/** True when the PGM's pixels are all but uniform (see the module's comment); false for what is not a greyscale PGM. */
export const blankPgm = (bytes: Uint8Array): boolean => {
  const image = parsePgm(bytes);
  if (!image) return false;
  const { pixels, maxval } = image;
  const histogram = new Uint32Array(256);
  for (let i = 0; i < pixels.length; i++) histogram[pixels[i]!]!++;
  let paper = 0;
  for (let value = 1; value <= maxval; value++) if (histogram[value]! > histogram[paper]!) paper = value;
  const tolerance = maxval / 8;
  let ink = 0;
  for (let value = 0; value <= maxval; value++) if (Math.abs(value - paper) > tolerance) ink += histogram[value]!;
  return ink <= pixels.length * BLANK_MAX_INK_SHARE;
};
