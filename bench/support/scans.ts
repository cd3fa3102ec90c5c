/**
 * One-page scans made in code for the OCR benchmark, with their ground truth: lines of words set in one of the
 * PDF base fonts, drawn by MuPDF at 300 dpi into a 2000x700 grey raster, turned by a slight angle, with sensor
 * noise and specks, saved as PNG (with its resolution, as a scanner writes it). Seeded: the same scans on every
 * run, so runs compare.
 */
import * as mupdf from 'mupdf';
import { seededRandom } from './stats';

export interface Scan {
  name: string;
  png: Uint8Array;
  /** The words drawn, in reading order. */
  words: string[];
}

export const SCAN_WIDTH = 2000;
export const SCAN_HEIGHT = 700;
export const SCAN_DPI = 300;
const LINES = 6;
const WORDS_PER_LINE = 7;
const MAX_LINE_CHARS = 56;

/** Office words of 4 letters or more: no single letters or look-alike glyph pairs to argue about. */
const VOCABULARY = (
  'invoice payment delivery customer account balance amount order receipt number total garden furniture ' +
  'Hamburg Berlin Monday Tuesday Friday morning evening shipment warehouse supplier contract signed office ' +
  'quarterly report budget project meeting minutes manager address street station parcel kitchen window ' +
  'insurance policy premium claim reference letter thanks please return within thirty days service ' +
  'printer paper folder archive tenant landlord deposit monthly interest credit transfer statement'
).split(' ');

// Courier (MuPDF's thin Nimbus Mono) loses strokes to the noise, and every contender then misreads digits.
const FONTS = ['Helvetica', 'Times-Roman', 'Helvetica-Bold'] as const;

/** `count` scans of `LINES x WORDS_PER_LINE` words each (42: 840 words for 20 scans). */
export function generateScans(count: number, seed = 20): Scan[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const word = (): string => (random() < 0.15 ? String(100 + Math.floor(random() * 99_900)) : pick(VOCABULARY));
  return Array.from({ length: count }, (_, i) => {
    const lines = Array.from({ length: LINES }, () => {
      // A line stays within the sheet in every font: at most 56 characters (Helvetica-Bold 14 pt: about 430 of 480 pt).
      for (;;) {
        const line = Array.from({ length: WORDS_PER_LINE }, word);
        if (line.join(' ').length <= MAX_LINE_CHARS) return line;
      }
    });
    const font = FONTS[i % FONTS.length]!;
    const angle = (random() * 2 - 1) * 1.5; // degrees, as a sheet lies on a flatbed
    const png = draw(lines, font, angle, random);
    return { name: `scan-${String(i + 1).padStart(2, '0')}.png`, png, words: lines.flat() };
  });
}

function draw(lines: string[][], fontName: string, angle: number, random: () => number): Uint8Array {
  const points = { width: (SCAN_WIDTH * 72) / SCAN_DPI, height: (SCAN_HEIGHT * 72) / SCAN_DPI };
  const document = new mupdf.PDFDocument();
  const font = document.addSimpleFont(new mupdf.Font(fontName));
  const resources = document.addObject({ Font: { F1: font } });
  const size = 14;
  const text = lines.map((line) => `(${line.join(' ')}) '`).join('\n');
  const contents = `BT /F1 ${size} Tf 22 TL 24 ${points.height - 10} Td\n${text}\nET`;
  document.insertPage(-1, document.addPage([0, 0, points.width, points.height], 0, resources, contents));
  const page = document.loadPage(0);

  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, SCAN_WIDTH, SCAN_HEIGHT], false);
  pixmap.clear(255);
  // Scale to 300 dpi, then turn about the centre of the sheet.
  const centre = [SCAN_WIDTH / 2, SCAN_HEIGHT / 2] as const;
  let matrix = mupdf.Matrix.scale(SCAN_DPI / 72, SCAN_DPI / 72);
  matrix = mupdf.Matrix.concat(matrix, mupdf.Matrix.translate(-centre[0], -centre[1]));
  matrix = mupdf.Matrix.concat(matrix, mupdf.Matrix.rotate(angle));
  matrix = mupdf.Matrix.concat(matrix, mupdf.Matrix.translate(centre[0], centre[1]));
  const device = new mupdf.DrawDevice(matrix, pixmap);
  page.run(device, mupdf.Matrix.identity);
  device.close();

  // Sensor noise (up to +-15 grey levels, mostly less), a paper tone, and dark specks.
  const pixels = pixmap.getPixels();
  for (let p = 0; p < pixels.length; p++) {
    const noise = (random() + random() + random() - 1.5) * 10;
    pixels[p] = Math.max(0, Math.min(255, pixels[p]! * 0.92 + 12 + noise));
  }
  for (let speck = 0; speck < 200; speck++) pixels[Math.floor(random() * pixels.length)] = Math.floor(random() * 90);
  pixmap.setResolution(SCAN_DPI, SCAN_DPI);
  const png = pixmap.asPNG().slice();
  pixmap.destroy();
  page.destroy();
  document.destroy();
  return png;
}

/** Words as the recall counts them: split on whitespace, punctuation at their ends dropped. */
export const tokens = (text: string): string[] =>
  text
    .split(/\s+/)
    .map((token) => token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);

/**
 * How many of `expected` (a multiset) the text holds, letter for letter but ignoring case, as search does ("s"
 * and "S" differ only in size in some fonts).
 */
export function wordsFound(expected: readonly string[], text: string): number {
  const have = new Map<string, number>();
  for (const token of tokens(text.toLowerCase())) have.set(token, (have.get(token) ?? 0) + 1);
  let found = 0;
  for (const word of expected.map((w) => w.toLowerCase())) {
    const left = have.get(word) ?? 0;
    if (left > 0) {
      found++;
      have.set(word, left - 1);
    }
  }
  return found;
}

/** An image turned clockwise by 90, 180 or 270 degrees, as a page fed into a scanner the wrong way round. */
export function turned(png: Uint8Array, degrees: 90 | 180 | 270): Uint8Array {
  const image = new mupdf.Image(png);
  const width = image.getWidth();
  const height = image.getHeight();
  const [outWidth, outHeight] = degrees === 180 ? [width, height] : [height, width];
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, outWidth, outHeight], false);
  pixmap.clear(255);
  // The image fills the unit square: scale it to its pixels, turn it, and move it back into the raster.
  const shift = { 90: [height, 0], 180: [width, height], 270: [0, width] }[degrees];
  let matrix = mupdf.Matrix.concat(mupdf.Matrix.scale(width, height), mupdf.Matrix.rotate(degrees));
  matrix = mupdf.Matrix.concat(matrix, mupdf.Matrix.translate(shift[0]!, shift[1]!));
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap);
  device.fillImage(image, matrix, 1);
  device.close();
  pixmap.setResolution(SCAN_DPI, SCAN_DPI);
  const out = pixmap.asPNG().slice();
  pixmap.destroy();
  return out;
}
