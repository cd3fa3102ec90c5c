/**
 * The invisible text layer of a searchable PDF: each word an engine read is shown in text rendering mode 3
 * (neither filled nor stroked) at the place the engine saw it, so that viewers find, select and copy it over the
 * page's image while nothing changes in how the page looks.
 *
 * The font is a Type 0 font of no glyphs (none is drawn, so no font program is embedded): every character is a
 * 2-byte code, its UTF-16 code unit, mapped back to itself by a ToUnicode CMap, so any script is extracted as it
 * was read. Every glyph is half an em wide; a word's text matrix stretches it to its box's width and sizes it to
 * its box's height, with the font's ascent and descent (800 and -200) spanning the box from top to bottom, so a text
 * extractor's box of the word is the engine's box.
 */
import type {
  PDFName} from '@cantoo/pdf-lib';
import {
  PDFHexString,
  PDFOperator,
  PDFOperatorNames as Ops,
  PDFNumber,
  PDFString,
  type PDFDocument,
  type PDFPage,
  type PDFRef,
} from '@cantoo/pdf-lib';
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

/**
 * The word's UTF-16 code units as a literal string of 2-byte codes (high byte first): about half the bytes of a hex
 * string, which the stream's compression cannot make up. The delimiters, the backslash and line ends are escaped.
 */
const utf16String = (text: string): PDFString => {
  let bytes = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    for (const byte of [unit >> 8, unit & 0xff]) {
      bytes += byte === 0x28 || byte === 0x29 || byte === 0x5c ? `\\${String.fromCharCode(byte)}` : byte === 0x0a ? '\\n' : byte === 0x0d ? '\\r' : String.fromCharCode(byte);
    }
  }
  return PDFString.of(bytes);
};

const op = (name: Ops, ...args: (number | PDFName | PDFString)[]): PDFOperator =>
  PDFOperator.of(
    name,
    args.map((arg) => (typeof arg === 'number' ? PDFNumber.of(Math.round(arg * 1000) / 1000) : arg)),
  );

/**
 * The words' coordinates are in tenths of a point (a third of a pixel at 300 dpi), whole numbers: the fewest
 * digits to store for each word, which is most of a scan's text layer.
 */
const UNITS_PER_POINT = 10;
const whole = (points: number): number => Math.round(points * UNITS_PER_POINT);

/** How far a line's band may be from one of its words' boxes, top or bottom, as a share of the page's height. */
const LINE_TOLERANCE = 0.01;

/** A word's box on the upright page, in points (origin bottom left). */
interface Box {
  text: string;
  left: number;
  bottom: number;
  width: number;
  size: number;
}

/**
 * Words in reading order, cut into lines: a word joins the line when it lies to the right of the last one and the
 * line, with it, still spans every word's box within `tolerance` points at top and bottom (a line is shown as one
 * band from its lowest bottom to its highest top).
 */
const lines = (boxes: readonly Box[], tolerance: number): Box[][] => {
  const found: { boxes: Box[]; bottoms: [number, number]; tops: [number, number] }[] = [];
  for (const box of boxes) {
    const line = found.at(-1);
    const top = box.bottom + box.size;
    if (line && box.left > line.boxes.at(-1)!.left) {
      const bottoms: [number, number] = [Math.min(line.bottoms[0], box.bottom), Math.max(line.bottoms[1], box.bottom)];
      const tops: [number, number] = [Math.min(line.tops[0], top), Math.max(line.tops[1], top)];
      if (bottoms[1] - bottoms[0] <= tolerance && tops[1] - tops[0] <= tolerance) {
        line.boxes.push(box);
        line.bottoms = bottoms;
        line.tops = tops;
        continue;
      }
    }
    found.push({ boxes: [box], bottoms: [box.bottom, box.bottom], tops: [top, top] });
  }
  return found.map((line) => line.boxes);
};

/**
 * One line: its text matrix sizes it (from its lowest bottom to its highest top is the em) and sets its baseline; each word is then
 * moved to (`Td`, in ems from the previous word) and stretched to its width (`Tz`): three numbers a word, where a
 * matrix a word would take six.
 */
const lineOperators = (line: readonly Box[]): PDFOperator[] => {
  const bottom = Math.min(...line.map((box) => box.bottom));
  const size = Math.max(...line.map((box) => box.bottom + box.size)) - bottom;
  const start = line[0]!.left;
  const operators = [op(Ops.SetTextMatrix, whole(size), 0, 0, whole(size), whole(start), whole(bottom - (DESCENT * size) / 1000))];
  let at = start;
  for (const box of line) {
    if (box.left !== at) operators.push(op(Ops.MoveText, (box.left - at) / size, 0));
    at = box.left;
    // Glyphs are half an em: stretched (percent) to the word's width.
    // A space after each word keeps words apart for extractors that join glyphs that are close.
    operators.push(op(Ops.SetTextHorizontalScaling, Math.round((100 * box.width) / ((box.text.length * GLYPH_WIDTH * size) / 1000))), op(Ops.ShowText, utf16String(`${box.text} `)));
  }
  return operators;
};

/**
 * A word's box is at least this many points a side: a speck read as a letter (a dash on a map, two pixels high)
 * is kept, its box grown from its top left corner, since every word OCR read must be found. Smaller, the text
 * matrix in tenths of a point would be all but singular.
 */
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
  const operators: PDFOperator[] = [
    op(Ops.PushGraphicsState),
    op(Ops.ConcatTransformationMatrix, ...uprightMatrix(frame)),
    op(Ops.ConcatTransformationMatrix, 1 / UNITS_PER_POINT, 0, 0, 1 / UNITS_PER_POINT, 0, 0),
    op(Ops.BeginText),
    op(Ops.SetTextRenderingMode, 3),
    op(Ops.SetFontAndSize, fontName, 1),
  ];
  const boxes = placed.map((word): Box => {
    const size = Math.max(MIN_SIDE, word.height * pageHeight);
    return { text: word.text.trim(), left: word.left * pageWidth, width: Math.max(MIN_SIDE, word.width * pageWidth), size, bottom: pageHeight - word.top * pageHeight - size };
  });
  // Each word's box is shown within 1 % of the page's height of the engine's, top and bottom.
  for (const line of lines(boxes, pageHeight * LINE_TOLERANCE)) operators.push(...lineOperators(line));
  operators.push(op(Ops.EndText), op(Ops.PopGraphicsState));
  page.pushOperators(...operators);
};
