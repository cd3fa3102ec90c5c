import { BoxReducer, reduceFlateRows, reductionFactor, type FlateRows, type ReducedImage } from './image-reduce';

/** A PNG's pixel rows as the box reducer reads them: the zlib stream of its IDAT chunks, and a 2-colour palette. */
interface PngRows {
  rows: FlateRows;
  idat: Uint8Array;
  /** For 1-bit palette images: the colours of index 0 and 1. */
  palette?: [number[], number[]];
}

/**
 * The layout of a PNG when it is one the reducer reads (not interlaced; 8-bit grey or RGB, 1-bit grey, or 1-bit
 * with a palette, as scanners write bilevel pages), else undefined: Skia decodes the others. Transparency
 * (tRNS, alpha channels) is left to Skia too.
 */
const pngRows = (bytes: Uint8Array): PngRows | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width = 0;
  let height = 0;
  let layout: FlateRows['layout'] | undefined;
  let paletted = false;
  let palette: [number[], number[]] | undefined;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (body.length !== length) return undefined;
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (interlace !== 0) return undefined;
      if (depth === 8 && colour === 0) layout = 'grey8';
      else if (depth === 8 && colour === 2) layout = 'rgb8';
      else if (depth === 1 && (colour === 0 || colour === 3)) layout = 'grey1';
      else return undefined;
      paletted = colour === 3;
    } else if (type === 'PLTE') {
      const first = [...body.subarray(0, 3)];
      palette = [first, length >= 6 ? [...body.subarray(3, 6)] : first];
    } else if (type === 'tRNS') return undefined;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!layout || idat.length === 0 || (paletted && !palette)) return undefined;
  return { rows: { layout, width, height, pngPredictor: true }, idat: Buffer.concat(idat), ...(paletted ? { palette } : {}) };
};

/**
 * Reads a PNG's rows as they inflate and box-reduces them to at least twice `target`, never holding the decoded
 * image (a 4000x2864 page is 46 MB decoded); undefined when the PNG is of a kind Skia should decode instead.
 * Throws on corrupt data.
 */
export const reducePng = async (bytes: Uint8Array, target: { width: number; height: number }): Promise<ReducedImage | undefined> => {
  const png = pngRows(bytes);
  if (!png) return undefined;
  const { rows } = png;
  const reducer = new BoxReducer(rows.layout, rows.width, rows.height, reductionFactor(rows.width, target.width), reductionFactor(rows.height, target.height));
  await reduceFlateRows(png.idat, rows, reducer);
  const image = reducer.result();
  if (png.palette) {
    // The mean of 1-bit indices is the share of index 1: the mean colour lies that far from colour 0 to colour 1.
    const [zero, one] = png.palette;
    const { rgba } = image;
    for (let at = 0; at < rgba.length; at += 4) {
      const share = rgba[at]! / 255;
      for (let channel = 0; channel < 3; channel++) rgba[at + channel] = zero[channel]! + share * (one[channel]! - zero[channel]!);
    }
  }
  return image;
};
