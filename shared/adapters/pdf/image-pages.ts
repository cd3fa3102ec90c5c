/**
 * Image files as PDF pages, from the file's own image data where PDF can carry it: a JPEG is embedded as it is
 * (DCTDecode, not decoded), a CCITT Group 4 TIFF page as its compressed strip (CCITTFaxDecode); PNG goes through
 * pdf-lib (its rows inflated and deflated again, losslessly); any other TIFF page and WebP are decoded and stored
 * losslessly (Flate; one bit a pixel for black and white, grey or RGB otherwise).
 */
import type { PDFImage} from '@cantoo/pdf-lib';
import { type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import * as utifModule from 'utif2';
import type { ImageFormat } from '../imaging/formats';
import { FileRefusal } from '../imaging/jobs';

/** UTIF.js is a CommonJS object: under ESM its functions are on the default export. */
const UTIF = ((utifModule as { default?: typeof utifModule }).default ?? utifModule) as typeof utifModule;

/** Resolution assumed when a file states none (or an implausible one): a scan's usual. */
const DEFAULT_DPI = 300;
/** PDF readers draw no page side above 200 inches (14,400 points). */
const MAX_SIDE_POINTS = 14_400;

/** One image to place as a page: a pdf-lib image, or an XObject written here, with its size in pixels and resolution. */
export interface PageImage {
  embed: (document: PDFDocument) => Promise<{ ref: PDFRef } | { image: PDFImage }>;
  width: number;
  height: number;
  dpi: number;
}

const plausible = (dpi: number | undefined): dpi is number => dpi !== undefined && Number.isFinite(dpi) && dpi >= 50 && dpi <= 2400;

/** The page's size in points for an image of this size and resolution, within what readers draw. */
export const pageSize = (image: Pick<PageImage, 'width' | 'height' | 'dpi'>): { width: number; height: number } => {
  const dpi = Math.max(plausible(image.dpi) ? image.dpi : DEFAULT_DPI, (Math.max(image.width, image.height) * 72) / MAX_SIDE_POINTS);
  return { width: (image.width * 72) / dpi, height: (image.height * 72) / dpi };
};

/** A JFIF header's density (APP0 right after SOI), in dots per inch. */
const jpegDpi = (bytes: Uint8Array): number | undefined => {
  if (bytes[2] !== 0xff || bytes[3] !== 0xe0 || String.fromCharCode(...bytes.subarray(6, 10)) !== 'JFIF') return undefined;
  const units = bytes[13];
  const x = ((bytes[14] ?? 0) << 8) | (bytes[15] ?? 0);
  return units === 1 ? x : units === 2 ? x * 2.54 : undefined;
};

/** A PNG's pHYs chunk, in dots per inch (its unit 1 is the metre). */
const pngDpi = (bytes: Uint8Array): number | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === 'pHYs' && at + 17 <= bytes.length) return bytes[at + 16] === 1 ? view.getUint32(at + 8) * 0.0254 : undefined;
    if (type === 'IDAT' || type === 'IEND') return undefined;
    at += 12 + length;
  }
  return undefined;
};

/**
 * A PNG whose compressed rows PDF reads as they are (FlateDecode with PNG predictors): not interlaced, no alpha
 * channel, grey, RGB or palette. Undefined for any other (pdf-lib then splits and recompresses it).
 */
const pngStream = (bytes: Uint8Array): ((document: PDFDocument) => { ref: PDFRef }) | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Uint8Array[] = [];
  let header: { width: number; height: number; depth: number; colour: number; interlace: number } | undefined;
  let palette: Uint8Array | undefined;
  let transparency = false;
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (data.length !== length) return undefined;
    if (type === 'IHDR') header = { width: view.getUint32(at + 8), height: view.getUint32(at + 12), depth: data[8]!, colour: data[9]!, interlace: data[12]! };
    else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') transparency = true;
    else if (type === 'IDAT') chunks.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!header || header.interlace !== 0 || transparency || chunks.length === 0 || ![0, 2, 3].includes(header.colour)) return undefined;
  if (header.colour === 3 && !palette) return undefined;
  const { width, height, depth, colour } = header;
  const colors = colour === 2 ? 3 : 1;
  return (document) => {
    const context = document.context;
    const data = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      data.set(chunk, offset);
      offset += chunk.length;
    }
    const colorSpace =
      colour === 3
        ? ['Indexed', 'DeviceRGB', palette!.length / 3 - 1, context.register(context.stream(palette!))]
        : colour === 2
          ? 'DeviceRGB'
          : 'DeviceGray';
    const dict = {
      Type: 'XObject',
      Subtype: 'Image',
      Width: width,
      Height: height,
      ColorSpace: colorSpace,
      BitsPerComponent: depth,
      Filter: 'FlateDecode',
      DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: depth, Columns: width },
    };
    return { ref: context.register(context.stream(data, dict as never)) };
  };
};

interface TiffIfd {
  width: number;
  height: number;
  t256?: number[];
  t257?: number[];
  t258?: number[];
  t259?: number[];
  t262?: number[];
  t266?: number[];
  t273?: number[];
  t279?: number[];
  t282?: number[];
  t296?: number[];
  [tag: string]: unknown;
}

/** Pixels as a lossless XObject: 1-bit grey when only black and white, 8-bit grey when grey, else RGB. */
const rawImage = (rgba: Uint8Array, width: number, height: number): ((document: PDFDocument) => { ref: PDFRef }) => {
  const pixels = width * height;
  let grey = true;
  let bilevel = true;
  // Transparency is composited on white, as the thumbnails do.
  const at = (i: number, channel: number): number => {
    const alpha = rgba[i * 4 + 3]!;
    return Math.round((rgba[i * 4 + channel]! * alpha + 255 * (255 - alpha)) / 255);
  };
  for (let i = 0; i < pixels && grey; i++) {
    const r = at(i, 0);
    if (r !== at(i, 1) || r !== at(i, 2)) grey = false;
    else if (r !== 0 && r !== 255) bilevel = false;
  }
  return (document) => {
    let data: Uint8Array;
    let dict: Record<string, unknown>;
    if (grey && bilevel) {
      const row = Math.ceil(width / 8);
      data = new Uint8Array(row * height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) if (at(y * width + x, 0) === 255) data[y * row + (x >> 3)]! |= 0x80 >> (x & 7);
      }
      dict = { ColorSpace: 'DeviceGray', BitsPerComponent: 1 };
    } else if (grey) {
      data = new Uint8Array(pixels);
      for (let i = 0; i < pixels; i++) data[i] = at(i, 0);
      dict = { ColorSpace: 'DeviceGray', BitsPerComponent: 8 };
    } else {
      data = new Uint8Array(pixels * 3);
      for (let i = 0; i < pixels; i++) for (let c = 0; c < 3; c++) data[i * 3 + c] = at(i, c);
      dict = { ColorSpace: 'DeviceRGB', BitsPerComponent: 8 };
    }
    const context = document.context;
    return { ref: context.register(context.flateStream(data, { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ...dict } as never)) };
  };
};

/** A TIFF page's resolution (XResolution, ResolutionUnit 2 inch or 3 cm). */
const tiffDpi = (ifd: TiffIfd): number | undefined => {
  const x = ifd.t282?.[0];
  const unit = ifd.t296?.[0] ?? 2;
  return x === undefined ? undefined : unit === 3 ? x * 2.54 : unit === 2 ? x : undefined;
};

/** A Group 4 page in one strip, bits in the usual order: its strip goes into the PDF as it is. */
const ccittStrip = (bytes: Uint8Array, ifd: TiffIfd): Uint8Array | undefined => {
  const offsets = ifd.t273;
  const counts = ifd.t279;
  if (ifd.t259?.[0] !== 4 || (ifd.t258?.[0] ?? 1) !== 1 || (ifd.t266?.[0] ?? 1) !== 1 || offsets?.length !== 1 || counts?.length !== 1) return undefined;
  const [offset, count] = [offsets[0]!, counts[0]!];
  return offset + count <= bytes.length ? bytes.subarray(offset, offset + count) : undefined;
};

const tiffPages = (bytes: Uint8Array, maxPixels: number): PageImage[] => {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const ifds = UTIF.decode(buffer) as unknown as TiffIfd[];
  return ifds.map((ifd) => {
    const width = ifd.t256?.[0] ?? 0;
    const height = ifd.t257?.[0] ?? 0;
    checkPixels(width, height, maxPixels);
    const dpi = tiffDpi(ifd) ?? DEFAULT_DPI;
    const strip = ccittStrip(bytes, ifd);
    if (strip) {
      // WhiteIsZero (0, the usual for fax and scans) codes black as 1 once decoded.
      const blackIs1 = (ifd.t262?.[0] ?? 0) === 0;
      return {
        width,
        height,
        dpi,
        embed: async (document) => {
          const context = document.context;
          const dict = { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: 1, Filter: 'CCITTFaxDecode', DecodeParms: { K: -1, Columns: width, Rows: height, BlackIs1: blackIs1 } };
          return { ref: context.register(context.stream(strip, dict as never)) };
        },
      };
    }
    return {
      width,
      height,
      dpi,
      embed: async (document) => {
        UTIF.decodeImage(buffer, ifd as never);
        return rawImage(UTIF.toRGBA8(ifd as never), width, height)(document);
      },
    };
  });
};

const checkPixels = (width: number, height: number, maxPixels: number): void => {
  if (!(width > 0 && height > 0)) throw new FileRefusal('the image has no size');
  if (width * height > maxPixels) {
    throw new FileRefusal(`the image is ${width}x${height} pixels, more than the ${Math.round(maxPixels / 1e6)} megapixels a searchable PDF may decode`);
  }
};

/** The pages of an image file, each as an image to embed; sizes are checked against `maxPixels` before decoding. */
export const imagePages = async (bytes: Uint8Array, format: Exclude<ImageFormat, 'pdf'>, size: { width: number; height: number } | undefined, maxPixels: number): Promise<PageImage[]> => {
  if (format === 'tiff') return tiffPages(bytes, maxPixels);
  if (!size) throw new FileRefusal('the image has no size');
  checkPixels(size.width, size.height, maxPixels);
  if (format === 'jpeg') return [{ ...size, dpi: jpegDpi(bytes) ?? DEFAULT_DPI, embed: async (document) => ({ image: await document.embedJpg(bytes) }) }];
  if (format === 'png') {
    const direct = pngStream(bytes);
    return [
      {
        ...size,
        dpi: pngDpi(bytes) ?? DEFAULT_DPI,
        embed: async (document) => (direct ? direct(document) : { image: await document.embedPng(bytes) }),
      },
    ];
  }
  return [
    {
      ...size,
      dpi: DEFAULT_DPI,
      embed: async (document) => {
        const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        const canvas = createCanvas(size.width, size.height);
        canvas.getContext('2d').drawImage(image, 0, 0);
        const rgba = canvas.getContext('2d').getImageData(0, 0, size.width, size.height).data;
        return rawImage(new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength), size.width, size.height)(document);
      },
    },
  ];
};
