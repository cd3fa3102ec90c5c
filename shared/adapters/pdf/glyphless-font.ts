/**
 * The fonts of a searchable PDF's invisible text: fonts of no glyphs (none is drawn, so no font program is
 * embedded), each registered on first use and shared by every page.
 *
 * - **WinAnsi**: a simple font of 1-byte codes in WinAnsiEncoding (Latin-1 and the usual typographic marks:
 *   quotes, dashes, the euro), which every extractor maps to Unicode by its glyph names. A line all of whose
 *   characters it has is shown in it: half the bytes of 2-byte codes.
 * - **Unicode**: a Type 0 font whose every character is a 2-byte code, its UTF-16 code unit, mapped back to
 *   itself by a ToUnicode CMap, so any script is extracted as it was read.
 *
 * Both have the same widths and an ascent and descent (800 and -200) that span the em, so a line sized to its
 * words' height is boxed as they were. With `proportional`, printable ASCII has Helvetica's widths (the rest half
 * an em): a word of a proportional typeface then takes about the width it took on the page at one horizontal
 * scaling for a whole run of words, which the layer (invisible-text.ts) then sets far less often than once a
 * word. The widths cost the fonts about 140 bytes each, which pays on a document of a few hundred words; a
 * smaller one has every character half an em.
 */
import { PDFName, PDFString, type PDFDict, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { deflateSync } from 'node:zlib';

export const ASCENT = 800;
export const DESCENT = -200;
/** Width of a character outside printable ASCII, in thousandths of an em. */
const DEFAULT_WIDTH = 500;
/** Helvetica's widths of U+0020 to U+007E, in thousandths of an em. */
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278,
  584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944,
  667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const FIRST_ASCII = 0x20;
const LAST_ASCII = 0x7e;

/** WinAnsiEncoding's codes 0x80 to 0x9F (Latin-1 has control characters there); 0 where it has none. */
const WIN_ANSI_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c,
  0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];
/**
 * Unicode to WinAnsiEncoding, without the no-break space and the soft hyphen: their codes' glyph names (space,
 * hyphen) are extracted as other characters.
 */
const WIN_ANSI = new Map<number, number>([
  ...Array.from({ length: LAST_ASCII - FIRST_ASCII + 1 }, (_, i): [number, number] => [FIRST_ASCII + i, FIRST_ASCII + i]),
  ...Array.from({ length: 0x100 - 0xa1 }, (_, i): [number, number] => [0xa1 + i, 0xa1 + i]).filter(([unit]) => unit !== 0xad),
  ...WIN_ANSI_HIGH.flatMap((unit, i): [number, number][] => (unit ? [[unit, 0x80 + i]] : [])),
]);

/**
 * Every 2-byte code to the same UTF-16 code unit: the ranges extractors read, without the CMap's name and
 * registration, which none of them uses.
 */
const TO_UNICODE =
  '/CIDInit/ProcSet findresource begin 9 dict begin begincmap 1 begincodespacerange<0000><FFFF>endcodespacerange ' +
  '1 beginbfrange<0000><FFFF><0000>endbfrange endcmap end end';

/** Escapes a literal string's delimiters, backslash and line ends. */
const literal = (bytes: number[]): string => {
  let out = '';
  for (const byte of bytes) {
    out += byte === 0x28 || byte === 0x29 || byte === 0x5c ? `\\${String.fromCharCode(byte)}` : byte === 0x0a ? '\\n' : byte === 0x0d ? '\\r' : String.fromCharCode(byte);
  }
  return out;
};

export type FontKind = 'winAnsi' | 'unicode';

/** The layer's fonts in one document. */
export interface GlyphlessFonts {
  /** The font, registered on first use. */
  ref: (kind: FontKind) => PDFRef;
  /** The font that shows every character of the text: WinAnsi when it has them all. */
  kindFor: (text: string) => FontKind;
  /** The text's codes in the font, as the bytes of a literal string (escaped). */
  encode: (kind: FontKind, text: string) => string;
  /** A text's width in ems. */
  widthOf: (text: string) => number;
}

export const glyphlessFonts = (document: PDFDocument, { proportional }: { proportional: boolean }): GlyphlessFonts => {
  const context = document.context;
  const widths = proportional ? ASCII_WIDTHS : [DEFAULT_WIDTH];
  let descriptor: PDFRef | undefined;
  const descriptorRef = (): PDFRef =>
    (descriptor ??= context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: 'GlyphLessFont',
        Flags: 5,
        FontBBox: [0, DESCENT, 1000, ASCENT],
        ItalicAngle: 0,
        Ascent: ASCENT,
        Descent: DESCENT,
        CapHeight: ASCENT,
        StemV: 80,
        MissingWidth: DEFAULT_WIDTH,
      }),
    ));
  const register = {
    winAnsi: () =>
      context.register(
        context.obj({
          Type: 'Font',
          Subtype: 'TrueType',
          BaseFont: 'GlyphLessFont',
          FirstChar: FIRST_ASCII,
          LastChar: FIRST_ASCII + widths.length - 1,
          Widths: widths,
          Encoding: 'WinAnsiEncoding',
          FontDescriptor: descriptorRef(),
        }),
      ),
    unicode: () => {
      const cidFont = context.register(
        context.obj({
          Type: 'Font',
          Subtype: 'CIDFontType2',
          BaseFont: 'GlyphLessFont',
          CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
          FontDescriptor: descriptorRef(),
          DW: DEFAULT_WIDTH,
          ...(proportional ? { W: [FIRST_ASCII, ASCII_WIDTHS] } : {}),
          CIDToGIDMap: 'Identity',
        }),
      );
      const toUnicode = context.register(context.stream(deflateSync(Buffer.from(TO_UNICODE, 'latin1'), { level: 9 }), { Filter: 'FlateDecode' }));
      return context.register(
        context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'GlyphLessFont', Encoding: 'Identity-H', DescendantFonts: [cidFont], ToUnicode: toUnicode }),
      );
    },
  };
  const refs: Partial<Record<FontKind, PDFRef>> = {};
  const glyphWidth = (unit: number): number => (proportional ? ASCII_WIDTHS[unit - FIRST_ASCII] : undefined) ?? DEFAULT_WIDTH;
  return {
    ref: (kind) => (refs[kind] ??= register[kind]()),
    kindFor: (text) => ([...text].every((char) => WIN_ANSI.has(char.charCodeAt(0)) && char.length === 1) ? 'winAnsi' : 'unicode'),
    encode: (kind, text) => {
      const bytes: number[] = [];
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        if (kind === 'unicode') bytes.push(unit >> 8, unit & 0xff);
        else bytes.push(WIN_ANSI.get(unit) ?? 0x20);
      }
      return literal(bytes);
    },
    widthOf: (text) => {
      let width = 0;
      for (let i = 0; i < text.length; i++) width += glyphWidth(text.charCodeAt(i));
      return width / 1000;
    },
  };
};

/**
 * The font's name in a page's resources: a short one, unless the page already uses it for another font (pages
 * may share their resources, so the name another page gave it is kept).
 */
export const fontName = (resources: PDFDict, tag: string, font: PDFRef): PDFName => {
  let name = PDFName.of(tag);
  for (let i = 1; resources.has(name) && resources.get(name) !== font; i++) name = PDFName.of(`${tag}${i}`);
  resources.set(name, font);
  return name;
};
