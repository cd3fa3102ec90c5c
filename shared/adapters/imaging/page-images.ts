import { inflateSync } from 'node:zlib';
import { PDFArray, PDFBool, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import { jpegFrame, type JpegFrame } from '../image-headers';
import type { PdfObjects } from './content-budget';
import type { FlateRows } from './image-reduce';

/** An affine transform [a b c d e f], as PDF's `cm` and the canvas's `setTransform` take it. */
export type Matrix = [number, number, number, number, number, number];

/** `outer` after `inner`: a point goes through `inner` first (pdf.js's `Util.transform`). */
export const multiply = (outer: Matrix, inner: Matrix): Matrix => [
  outer[0] * inner[0] + outer[2] * inner[1],
  outer[1] * inner[0] + outer[3] * inner[1],
  outer[0] * inner[2] + outer[2] * inner[3],
  outer[1] * inner[2] + outer[3] * inner[3],
  outer[0] * inner[4] + outer[2] * inner[5] + outer[4],
  outer[1] * inner[4] + outer[3] * inner[5] + outer[5],
];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** An image XObject this module's caller decodes itself, without pdf.js: its encoded bytes and their layout. */
export type DirectImage =
  | { kind: 'jpeg'; bytes: Uint8Array; width: number; height: number }
  | { kind: 'flate'; bytes: Uint8Array; rows: FlateRows };

/** A clipping rectangle (x, y, width, height) in the space of `ctm`, as `re W n` sets one. */
export interface ClipRect {
  ctm: Matrix;
  rect: [number, number, number, number];
}

/** An image the page draws, with the transform from its unit square to page space; `direct` when decodable here. */
export interface PlacedImage {
  ctm: Matrix;
  /** Rectangles the image is clipped to, all of them. */
  clips: ClipRect[];
  width: number;
  height: number;
  direct: DirectImage | undefined;
}

/**
 * What a page's content draws, as far as thumbnails care:
 * - `images`: image XObjects and nothing else (a scan), each placed by its transform;
 * - `other`: anything more (visible text, paths, forms, transparency, optional content, annotations): the full
 *   renderer. Invisible text (rendering mode 3, an OCR layer over a scan) draws nothing and is allowed;
 * - `unknown`: content this reader does not parse (a filter other than Flate, a long stream): pdf.js's
 *   operator list decides.
 */
export type PageImages = { kind: 'images'; images: PlacedImage[] } | { kind: 'other' } | { kind: 'unknown' };

/** Image-only content is a few operators, and an OCR layer a few hundred KB at most; longer content is left to pdf.js. */
const MAX_CONTENT_BYTES = 1 << 20;
const MAX_IMAGES = 16;

/**
 * Operators that change nothing a thumbnail shows by themselves: line style, flatness, rendering intent, plain
 * marked content, colours (nothing is painted with them here), and text state and positioning (text is shown
 * only by the show operators, checked apart).
 */
const HARMLESS = new Set([
  ...['w', 'J', 'j', 'M', 'i', 'ri', 'BMC', 'EMC'],
  ...['g', 'G', 'rg', 'RG', 'k', 'K', 'cs', 'CS', 'sc', 'SC', 'scn', 'SCN'],
  ...['BT', 'ET', 'Tf', 'Td', 'TD', 'Tm', 'T*', 'Tc', 'Tw', 'Tz', 'TL', 'Ts'],
]);

/** Operators that show text: harmless only in text rendering mode 3 (invisible, as OCR layers are written). */
const SHOW_TEXT = new Set(['Tj', 'TJ', "'", '"']);
const INVISIBLE = 3;

/** ExtGState keys with values that leave an opaque image as it is. */
const OPAQUE_GSTATE = (key: string, value: PDFObject | undefined): boolean => {
  if (['Type', 'LW', 'LC', 'LJ', 'ML', 'D', 'RI', 'OP', 'op', 'OPM', 'FL', 'SM', 'SA', 'TK', 'AIS'].includes(key)) return true;
  if (key === 'CA' || key === 'ca') return value instanceof PDFNumber && value.asNumber() >= 1;
  if (key === 'BM') return value instanceof PDFName && ['Normal', 'Compatible'].includes(value.decodeText());
  if (key === 'SMask') return value instanceof PDFName && value.decodeText() === 'None';
  return false;
};

const TOKEN = /[\s\0]+|%[^\r\n]*|([+-]?(?:\d+\.?\d*|\.\d+))|(\/[^\s/[\]<>(){}%]*)|([A-Za-z'"*][A-Za-z0-9'"*]*)|(.)/gy;

/** The index just past the `)` that closes a literal string whose `(` ends before `from`, or 0 when it is not closed. */
const literalStringEnd = (text: string, from: number): number => {
  let depth = 1;
  for (let at = from; at < text.length; at++) {
    const char = text[at];
    if (char === '\\') at++;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return at + 1;
  }
  return 0;
};

/** A JPEG that Skia decodes as a PDF reader draws it: baseline, extended or progressive, and no Exif orientation. */
const plainJpegFrame = (bytes: Uint8Array): JpegFrame | undefined => {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const frame = jpegFrame(bytes);
  return frame && [0xc0, 0xc1, 0xc2].includes(frame.frameMarker) && !frame.exif ? frame : undefined;
};

/**
 * Reads what the page object `pageRef` draws from its content stream (parsed by pdf-lib, inflated with the
 * content budget already checked), to tell a page that is only images apart from one pdf.js must render.
 */
export const pageImages = (objects: PdfObjects, pageRef: { num: number; gen: number } | null): PageImages => {
  const { context } = objects;
  const lookup = (value: PDFObject | undefined): PDFObject | undefined => (value instanceof PDFRef ? context.lookup(value) : value);
  const dictOf = (value: PDFObject | undefined): PDFDict | undefined => {
    const object = lookup(value);
    if (object instanceof PDFRawStream) return object.dict;
    return object instanceof PDFDict ? object : undefined;
  };
  const get = (dict: PDFDict | undefined, key: string): PDFObject | undefined => lookup(dict?.get(PDFName.of(key)));
  const nameOf = (value: PDFObject | undefined): string | undefined => (value instanceof PDFName ? value.decodeText() : undefined);
  const numberOf = (value: PDFObject | undefined, fallback: number): number => (value instanceof PDFNumber ? value.asNumber() : fallback);

  const page = pageRef ? lookup(PDFRef.of(pageRef.num, pageRef.gen)) : undefined;
  if (!(page instanceof PDFDict)) return { kind: 'unknown' };
  const annotations = get(page, 'Annots');
  if (annotations instanceof PDFArray && annotations.size() > 0) return { kind: 'other' };

  // The content, inflated (Flate only; the budget check measured it already).
  const contents = get(page, 'Contents');
  const parts = contents instanceof PDFArray ? contents.asArray().map(lookup) : [contents];
  let text = '';
  for (const part of parts) {
    if (!(part instanceof PDFRawStream)) return { kind: 'unknown' };
    const filter = get(part.dict, 'Filter');
    const names = filter instanceof PDFArray ? filter.asArray().map((item) => nameOf(lookup(item))) : filter === undefined ? [] : [nameOf(filter)];
    let data: Uint8Array = part.contents;
    for (const name of names) {
      if (name !== 'FlateDecode' && name !== 'Fl') return { kind: 'unknown' };
      try {
        data = inflateSync(data, { maxOutputLength: MAX_CONTENT_BYTES + 1 });
      } catch {
        return { kind: 'unknown' };
      }
    }
    text += `${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1')}\n`;
    if (text.length > MAX_CONTENT_BYTES) return { kind: 'unknown' };
  }

  // Resources are inheritable from the page tree.
  let resources: PDFDict | undefined;
  const parents = new Set<PDFDict>();
  for (let node: PDFDict | undefined = page; node && !resources && parents.size < 64 && !parents.has(node); node = dictOf(node.get(PDFName.of('Parent')))) {
    parents.add(node);
    resources = dictOf(node.get(PDFName.of('Resources')));
  }
  const resource = (category: string, name: string): PDFObject | undefined => get(dictOf(get(resources, category)), name);

  const images: PlacedImage[] = [];
  const stack: { ctm: Matrix; clips: ClipRect[]; textMode: number }[] = [];
  let ctm = IDENTITY;
  let textMode = 0;
  let clips: ClipRect[] = [];
  let path: ClipRect | undefined;
  let clipping = false;
  const operands: (number | string)[] = [];
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const [, number, name, operator, other] = match;
    if (other !== undefined) {
      // Strings and arrays are operands of text operators; dictionaries (inline images, properties) are not read here.
      if (other === '[' || other === ']') continue;
      const end = other === '(' ? literalStringEnd(text, TOKEN.lastIndex) : other === '<' && text[TOKEN.lastIndex] !== '<' ? text.indexOf('>', TOKEN.lastIndex) + 1 : 0;
      if (end <= 0) return { kind: 'other' };
      TOKEN.lastIndex = end;
      operands.push('(string)');
    } else if (number !== undefined) operands.push(Number(number));
    else if (name !== undefined) operands.push(name.slice(1));
    else if (operator !== undefined) {
      const args = operands.splice(0);
      if (path && !['W', 'W*', 'n'].includes(operator)) return { kind: 'other' }; // a path that is painted
      if (operator === 'q') stack.push({ ctm, clips, textMode });
      else if (operator === 'Q') ({ ctm, clips, textMode } = stack.pop() ?? { ctm: IDENTITY, clips: [], textMode: 0 });
      else if (operator === 'Tr') textMode = Number(args[0]);
      else if (SHOW_TEXT.has(operator)) {
        if (textMode !== INVISIBLE) return { kind: 'other' };
      }
      else if (operator === 're') {
        if (args.length !== 4 || args.some((arg) => typeof arg !== 'number')) return { kind: 'other' };
        path = { ctm, rect: args as ClipRect['rect'] };
      } else if (operator === 'W' || operator === 'W*') clipping = true;
      else if (operator === 'n') {
        if (path && clipping) clips = [...clips, path];
        path = undefined;
        clipping = false;
      } else if (operator === 'cm') {
        if (args.length !== 6 || args.some((arg) => typeof arg !== 'number')) return { kind: 'other' };
        ctm = multiply(ctm, args as Matrix);
      } else if (operator === 'gs') {
        const state = dictOf(resource('ExtGState', String(args[0])));
        if (!state || state.entries().some(([key, value]) => !OPAQUE_GSTATE(key.decodeText(), lookup(value)))) return { kind: 'other' };
      } else if (operator === 'Do') {
        const stream = lookup(resource('XObject', String(args[0])));
        if (!(stream instanceof PDFRawStream) || nameOf(get(stream.dict, 'Subtype')) !== 'Image') return { kind: 'other' };
        if (images.length >= MAX_IMAGES) return { kind: 'other' };
        const width = numberOf(get(stream.dict, 'Width'), 0);
        const height = numberOf(get(stream.dict, 'Height'), 0);
        images.push({ ctm, clips, width, height, direct: directImage(stream, width, height) });
      } else if (!HARMLESS.has(operator)) return { kind: 'other' };
    }
  }
  return images.length > 0 ? { kind: 'images', images } : { kind: 'other' };

  /** The image's encoded bytes when it is a JPEG or Flate image of a layout decoded here, else undefined. */
  function directImage(stream: PDFRawStream, width: number, height: number): DirectImage | undefined {
    const { dict } = stream;
    if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) return undefined;
    const mask = get(dict, 'ImageMask');
    if ((mask instanceof PDFBool && mask.asBoolean()) || get(dict, 'SMask') || get(dict, 'Mask') || get(dict, 'Decode')) return undefined;
    const bits = numberOf(get(dict, 'BitsPerComponent'), 0);
    const components = colourComponents(get(dict, 'ColorSpace'));
    const filter = get(dict, 'Filter');
    const filters = filter instanceof PDFArray ? filter.asArray().map((item) => nameOf(lookup(item))) : [nameOf(filter)];
    if (filters.length !== 1) return undefined;
    if ((filters[0] === 'DCTDecode' || filters[0] === 'DCT') && bits === 8 && (components === 1 || components === 3)) {
      const frame = plainJpegFrame(stream.contents);
      if (!frame || frame.width !== width || frame.height !== height || frame.components !== components) return undefined;
      return { kind: 'jpeg', bytes: stream.contents, width, height };
    }
    if (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl') return undefined;
    const layout = bits === 8 && components === 3 ? 'rgb8' : bits === 8 && components === 1 ? 'grey8' : bits === 1 && components === 1 ? 'grey1' : undefined;
    if (!layout) return undefined;
    let parameters = get(dict, 'DecodeParms');
    if (parameters instanceof PDFArray) parameters = lookup(parameters.get(0));
    const params = parameters instanceof PDFDict ? parameters : undefined;
    const predictor = numberOf(get(params, 'Predictor'), 1);
    if (predictor >= 10) {
      const matches =
        numberOf(get(params, 'Colors'), 1) === components && numberOf(get(params, 'BitsPerComponent'), 8) === bits && numberOf(get(params, 'Columns'), 1) === width;
      if (!matches) return undefined;
    } else if (predictor !== 1) return undefined;
    return { kind: 'flate', bytes: stream.contents, rows: { layout, width, height, pngPredictor: predictor >= 10 } };
  }

  /** Components of a grey or RGB colour space (device, calibrated or ICC-based); undefined for any other. */
  function colourComponents(space: PDFObject | undefined): number | undefined {
    const name = nameOf(space);
    if (name === 'DeviceGray') return 1;
    if (name === 'DeviceRGB') return 3;
    if (!(space instanceof PDFArray)) return undefined;
    const family = nameOf(lookup(space.get(0)));
    if (family === 'CalGray') return 1;
    if (family === 'CalRGB') return 3;
    if (family === 'ICCBased') {
      const n = numberOf(get(dictOf(space.get(1)), 'N'), 0);
      return n === 1 || n === 3 ? n : undefined;
    }
    return undefined;
  }
};
