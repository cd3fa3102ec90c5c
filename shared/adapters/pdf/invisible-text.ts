/**
 * The invisible text layer of a searchable PDF: each word an engine read is shown in text rendering mode 3
 * (neither filled nor stroked) at the place the engine saw it, so that viewers find, select and copy it over the
 * page's image while nothing changes in how the page looks.
 *
 * The words are in the glyphless font (glyphless-font.ts). A line of words is one band, sized (`Tf`) so the
 * font's ascent and descent span its words' boxes; along it, words follow each other with a space between
 * them, and the layer only corrects where the font's widths would leave a word too far from the engine's box:
 * a kerning number in the line's `TJ` array when a word would start too far from its box, a new horizontal
 * scaling (`Tz`) when it would end too far from it. Most of a scan's layer is these words, so every number
 * left out is most of what the layer costs.
 */
import { PDFArray, PDFDict, PDFName, PDFRef, type PDFDocument, type PDFObject, type PDFPage } from '@cantoo/pdf-lib';
import { deflateSync } from 'node:zlib';
import type { PlacedWord } from '../imaging/jobs';
import { DESCENT, fontName, glyphlessFonts, type FontKind, type GlyphlessFonts } from './glyphless-font';

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
 * The layer's coordinates are in tenths of a point (a third of a pixel at 300 dpi), whole numbers: the fewest
 * digits to store for each line.
 */
const UNITS_PER_POINT = 10;

/** How far a line's band may be from one of its words' boxes, top or bottom, as a share of the page's height. */
const LINE_TOLERANCE = 0.01;
/** How far a word may start from its box's left side, as a share of the page's width. */
const START_TOLERANCE = 0.004;
/** How far a word may end from its box's right side, as a share of the page's width. */
const END_TOLERANCE = 0.01;
/** Kerning numbers are rounded to this many thousandths of an em (a hundredth: well within the tolerances). */
const KERNING_STEP = 10;

/**
 * A word's box is at least this many points a side: a speck read as a letter (a dash on a map, two pixels high)
 * is kept, its box grown from its top left corner, since every word OCR read must be found.
 */
const MIN_SIDE = 0.5;

/** A word's box on the upright page, in layer units (origin bottom left). */
interface Box {
  text: string;
  left: number;
  right: number;
  bottom: number;
  top: number;
}

/**
 * Words in reading order, cut into lines: a word joins the line when it lies to the right of the last one and the
 * line, with it, still spans every word's box within `tolerance` at top and bottom.
 */
const lines = (boxes: readonly Box[], tolerance: number): Box[][] => {
  const found: { boxes: Box[]; bottoms: [number, number]; tops: [number, number] }[] = [];
  for (const box of boxes) {
    const line = found.at(-1);
    if (line && box.left > line.boxes.at(-1)!.left) {
      const bottoms: [number, number] = [Math.min(line.bottoms[0], box.bottom), Math.max(line.bottoms[1], box.bottom)];
      const tops: [number, number] = [Math.min(line.tops[0], box.top), Math.max(line.tops[1], box.top)];
      if (bottoms[1] - bottoms[0] <= tolerance && tops[1] - tops[0] <= tolerance) {
        line.boxes.push(box);
        line.bottoms = bottoms;
        line.tops = tops;
        continue;
      }
    }
    found.push({ boxes: [box], bottoms: [box.bottom, box.bottom], tops: [box.top, box.top] });
  }
  return found.map((line) => line.boxes);
};

/**
 * A line's band (its bottom and height, whole units): the previous line's height when a band of it still lies
 * within `tolerance` of every word's box (the font size is then not set again), else from its lowest bottom to
 * its highest top.
 */
const band = (line: readonly Box[], tolerance: number, previousSize: number | undefined): { bottom: number; size: number } => {
  const bottoms = line.map((box) => box.bottom);
  const tops = line.map((box) => box.top);
  if (previousSize !== undefined) {
    const low = Math.ceil(Math.max(Math.max(...bottoms) - tolerance, Math.max(...tops) - tolerance - previousSize));
    const high = Math.floor(Math.min(Math.min(...bottoms) + tolerance, Math.min(...tops) + tolerance - previousSize));
    if (low <= high) return { bottom: Math.round((low + high) / 2), size: previousSize };
  }
  const bottom = Math.round(Math.min(...bottoms));
  return { bottom, size: Math.max(1, Math.round(Math.max(...tops) - bottom)) };
};

/** A number as few characters as it takes (three decimals at most). */
const num = (n: number): string => String(Math.round(n * 1000) / 1000 + 0);

/** What the text state holds from one line to the next. */
interface TextState {
  x: number;
  y: number;
  font: string | undefined;
  size: number | undefined;
  scaling: number;
}

/**
 * One line's operators: the font size when it changes, the move to the line's start (`Td`, from the last
 * line's), then its words: a space after each keeps them apart for extractors, and a word is corrected only when
 * it would start (a kerning number) or end (`Tz`) too far from its box.
 */
const lineOperators = (line: readonly Box[], state: TextState, fonts: GlyphlessFonts, nameOf: (kind: FontKind) => string, tolerances: { line: number; start: number; end: number }): string => {
  const { bottom, size } = band(line, tolerances.line, state.size);
  const x = Math.round(line[0]!.left);
  const y = Math.round(bottom - (DESCENT * size) / 1000);
  const kind = fonts.kindFor(line.map((box) => box.text).join(' '));
  const font = nameOf(kind);
  let out = size === state.size && font === state.font ? '' : `/${font} ${size} Tf `;
  out += `${x - state.x} ${y - state.y} Td`;
  Object.assign(state, { x, y, font, size });
  const space = fonts.widthOf(' ');
  let pen = x;
  let parts: string[] = [];
  let text = '';
  const flushText = () => {
    if (text) parts.push(`(${text})`);
    text = '';
  };
  const show = () => {
    flushText();
    if (parts.length === 1 && parts[0]!.startsWith('(')) out += `${parts[0]}Tj`;
    else if (parts.length) out += `[${parts.join('')}]TJ`;
    parts = [];
  };
  for (const box of line) {
    const width = fonts.widthOf(box.text);
    const em = () => (size * state.scaling) / 100;
    const kern = Math.abs(pen - box.left) > tolerances.start;
    const start = kern ? box.left : pen;
    if (Math.abs(start + width * em() - box.right) > tolerances.end) {
      show();
      state.scaling = Math.max(1, Math.round((100 * (box.right - start)) / (width * size)));
      out += ` ${state.scaling} Tz`;
    }
    if (kern) {
      const shift = Math.round(((pen - box.left) * 1000) / em() / KERNING_STEP) * KERNING_STEP;
      if (shift !== 0) {
        flushText();
        parts.push(String(shift));
        pen -= (shift / 1000) * em();
      }
    }
    text += fonts.encode(kind, `${box.text} `);
    pen += (width + space) * em();
  }
  show();
  return out;
};

/**
 * The page's own font resources (inherited ones are set on the page, as pdf-lib does), without pdf-lib's
 * normalisation, which would wrap the content in two more streams.
 */
const fontResources = (document: PDFDocument, page: PDFPage): PDFDict => {
  const context = document.context;
  const resources = context.lookupMaybe(page.node.getInheritableAttribute(PDFName.of('Resources')), PDFDict) ?? context.obj({});
  page.node.set(PDFName.of('Resources'), resources);
  const fonts = resources.lookupMaybe(PDFName.of('Font'), PDFDict) ?? context.obj({});
  resources.set(PDFName.of('Font'), fonts);
  return fonts;
};

/** The page's content streams, in order. */
const contents = (document: PDFDocument, page: PDFPage): PDFObject[] => {
  const entry = page.node.get(PDFName.of('Contents'));
  const value = entry instanceof PDFRef ? document.context.lookup(entry) : entry;
  if (value instanceof PDFArray) return value.asArray();
  return entry ? [entry] : [];
};

/** The invisible words of one document's pages. */
export interface TextLayer {
  /** Lays the words (fractions of the upright page) over the page's content. */
  add: (page: PDFPage, frame: PageFrame, words: readonly PlacedWord[]) => void;
}

/**
 * Writes the layer on the pages of one document: the fonts and a stream of `q` are registered on first use and
 * shared by all pages. Each page's content is put between that `q` and the layer's stream, which
 * starts with its `Q`, so whatever state the content leaves does not move the words.
 */
export const textLayer = (document: PDFDocument, { proportional }: { proportional: boolean }): TextLayer => {
  const fonts = glyphlessFonts(document, { proportional });
  let push: PDFRef | undefined;
  return {
    add: (page: PDFPage, frame: PageFrame, words: readonly PlacedWord[]): void => {
      const placed = words.filter((word) => word.text.trim() !== '');
      if (placed.length === 0) return;
      const context = document.context;
      push ??= context.register(context.stream('q'));
      const resources = fontResources(document, page);
      const names: Partial<Record<FontKind, string>> = {};
      const nameOf = (kind: FontKind): string => {
        names[kind] ??= fontName(resources, kind === 'winAnsi' ? 'OCR' : 'OCRU', fonts.ref(kind)).asString().slice(1);
        return names[kind];
      };
      const { width: pageWidth, height: pageHeight } = uprightSize(frame);
      const [a, b, c, d, e, f] = uprightMatrix(frame);
      const unit = 1 / UNITS_PER_POINT;
      const points = (fraction: number, side: number) => fraction * side * UNITS_PER_POINT;
      const boxes = placed.map((word): Box => {
        const height = Math.max(MIN_SIDE, word.height * pageHeight) * UNITS_PER_POINT;
        const left = points(word.left, pageWidth);
        const top = points(1 - word.top, pageHeight);
        return { text: word.text.trim(), left, right: left + Math.max(MIN_SIDE * UNITS_PER_POINT, points(word.width, pageWidth)), bottom: top - height, top };
      });
      const tolerances = { line: points(LINE_TOLERANCE, pageHeight), start: points(START_TOLERANCE, pageWidth), end: points(END_TOLERANCE, pageWidth) };
      const state: TextState = { x: 0, y: 0, font: undefined, size: undefined, scaling: 100 };
      const operators = lines(boxes, tolerances.line).map((line) => lineOperators(line, state, fonts, nameOf, tolerances));
      const content = `Q q ${[a * unit, b * unit, c * unit, d * unit, e, f].map(num).join(' ')} cm BT 3 Tr ${operators.join('\n')} ET Q`;
      const layer = context.register(context.stream(deflateSync(Buffer.from(content, 'latin1'), { level: 9 }), { Filter: 'FlateDecode' }));
      page.node.set(PDFName.of('Contents'), context.obj([push, ...contents(document, page), layer]));
    },
  };
};
