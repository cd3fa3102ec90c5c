/**
 * The invisible text layer of a searchable PDF: each word an engine read is shown in text rendering mode 3
 * (neither filled nor stroked) at the place the engine saw it, so that viewers find, select and copy it over the
 * page's image while nothing changes in how the page looks.
 *
 * The font is a Type 0 font of no glyphs (none is drawn, so no font program is embedded): every character is a
 * 2-byte code, its UTF-16 code unit, mapped back to itself by a ToUnicode CMap, so any script is extracted as it
 * was read. Every glyph is half an em wide; a word is stretched (`Tz`) to its box's width and sized to its
 * box's height, with the font's ascent and descent (800 and -200) spanning the box from top to bottom, so a text
 * extractor's box of the word is the engine's box.
 */
import type {
  PDFName} from 'pdf-lib/dist/pdf-lib.esm.min.js';
import {
  PDFHexString,
  PDFOperator,
  PDFOperatorNames as Ops,
  PDFNumber,
  type PDFDocument,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib/dist/pdf-lib.esm.min.js';
import type { PlacedWord } from '../imaging/jobs';

/** Glyph width of every character, in thousandths of an em. */
const GLYPH_WIDTH = 500;
const ASCENT = 800;
const DESCENT = -200;

/** Identity mapping of every 2-byte code to the same UTF-16 code unit. */
const TO_UNICODE = [
  '/CIDInit /ProcSet findresource begin',
  '12 dict begin',
  'begincmap',
  '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
  '/CMapName /Adobe-Identity-UCS def',
  '/CMapType 2 def',
  '1 begincodespacerange',
  '<0000> <FFFF>',
  'endcodespacerange',
  '1 beginbfrange',
  '<0000> <FFFF> <0000>',
  'endbfrange',
  'endcmap',
  'CMapName currentdict /CMap defineresource pop',
  'end',
  'end',
].join('\n');

/** Registers the glyphless font in the document; its reference is added to each page that shows words. */
export const embedGlyphlessFont = (document: PDFDocument): PDFRef => {
  const context = document.context;
  const descriptor = context.register(
    context.obj({
      Type: 'FontDescriptor',
      FontName: 'GlyphLessFont',
      Flags: 5,
      FontBBox: [0, DESCENT, GLYPH_WIDTH, ASCENT],
      ItalicAngle: 0,
      Ascent: ASCENT,
      Descent: DESCENT,
      CapHeight: ASCENT,
      StemV: 80,
    }),
  );
  const cidFont = context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: 'GlyphLessFont',
      CIDSystemInfo: { Registry: PDFHexString.fromText('Adobe'), Ordering: PDFHexString.fromText('Identity'), Supplement: 0 },
      FontDescriptor: descriptor,
      DW: GLYPH_WIDTH,
      CIDToGIDMap: 'Identity',
    }),
  );
  const toUnicode = context.register(context.flateStream(TO_UNICODE));
  return context.register(
    context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'GlyphLessFont', Encoding: 'Identity-H', DescendantFonts: [cidFont], ToUnicode: toUnicode }),
  );
};

/**
 * Where the upright page's fractions land in the page's own space: the visible box (crop box) and the page's
 * clockwise `/Rotate`, as the matrix taking upright points (origin bottom left, in points) to user space.
 */
export interface PageFrame {
  box: { x: number; y: number; width: number; height: number };
  rotation: 0 | 90 | 180 | 270;
}

/** The upright page's size in points: a page turned by 90 or 270 degrees shows its box's sides swapped. */
const uprightSize = ({ box, rotation }: PageFrame): { width: number; height: number } =>
  rotation === 90 || rotation === 270 ? { width: box.height, height: box.width } : { width: box.width, height: box.height };

/** The `cm` matrix from upright coordinates to the page's user space. */
const uprightMatrix = ({ box, rotation }: PageFrame): [number, number, number, number, number, number] => {
  const { x, y, width, height } = box;
  switch (rotation) {
    case 90:
      return [0, 1, -1, 0, x + width, y];
    case 180:
      return [-1, 0, 0, -1, x + width, y + height];
    case 270:
      return [0, -1, 1, 0, x, y + height];
    default:
      return [1, 0, 0, 1, x, y];
  }
};

const hexUtf16 = (text: string): PDFHexString => {
  let hex = '';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0');
  return PDFHexString.of(hex);
};

const op = (name: Ops, ...args: (number | PDFName | PDFHexString)[]): PDFOperator =>
  PDFOperator.of(
    name,
    args.map((arg) => (typeof arg === 'number' ? PDFNumber.of(Math.round(arg * 1000) / 1000) : arg)),
  );

/** Below this many points a word's box is too small to place text in (a speck read as a letter). */
const MIN_SIDE = 0.5;

/**
 * Adds the words over the page, in a graphics state of their own after the page's content (which is wrapped in
 * `q`/`Q`, so whatever state it leaves does not move them).
 */
export const addInvisibleWords = (document: PDFDocument, page: PDFPage, font: PDFRef, frame: PageFrame, words: readonly PlacedWord[]): void => {
  const placed = words.filter((word) => word.text.trim() !== '');
  if (placed.length === 0) return;
  const context = document.context;
  page.node.wrapContentStreams(context.register(context.stream('q')), context.register(context.stream('Q')));
  const fontName = page.node.newFontDictionary('OcrText', font);
  const { width: pageWidth, height: pageHeight } = uprightSize(frame);
  const operators: PDFOperator[] = [op(Ops.PushGraphicsState), op(Ops.ConcatTransformationMatrix, ...uprightMatrix(frame)), op(Ops.BeginText), op(Ops.SetTextRenderingMode, 3)];
  for (const word of placed) {
    const text = word.text.trim();
    const width = word.width * pageWidth;
    const size = word.height * pageHeight;
    if (width < MIN_SIDE || size < MIN_SIDE) continue;
    const left = word.left * pageWidth;
    const bottom = pageHeight - (word.top + word.height) * pageHeight;
    const natural = (text.length * GLYPH_WIDTH * size) / 1000;
    operators.push(
      op(Ops.SetFontAndSize, fontName, size),
      op(Ops.SetTextHorizontalScaling, (100 * width) / natural),
      op(Ops.SetTextMatrix, 1, 0, 0, 1, left, bottom - (DESCENT * size) / 1000),
      // A space after each word keeps words apart for extractors that join what is close.
      op(Ops.ShowText, hexUtf16(`${text} `)),
    );
  }
  operators.push(op(Ops.EndText), op(Ops.PopGraphicsState));
  page.pushOperators(...operators);
};
