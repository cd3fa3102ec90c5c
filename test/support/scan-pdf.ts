import { crc32, deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { pdfFile } from './hostile-files';

/** An RGB colour, 0-255 each. */
export type Rgb = readonly [number, number, number];

/** A width x height image whose top half is `top` and bottom half `bottom`, as RGB bytes, row 0 at the top. */
export const twoBandPixels = (width: number, height: number, top: Rgb, bottom: Rgb): Buffer => {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const colour = y < height / 2 ? top : bottom;
    for (let x = 0; x < width; x++) pixels.set(colour, (y * width + x) * 3);
  }
  return pixels;
};

/** The same two bands as a baseline JPEG (Skia's encoder), as a scanner writes them into a PDF. */
export const twoBandJpeg = (width: number, height: number, top: Rgb, bottom: Rgb): Buffer => {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = `rgb(${top.join(',')})`;
  context.fillRect(0, 0, width, Math.ceil(height / 2));
  context.fillStyle = `rgb(${bottom.join(',')})`;
  context.fillRect(0, Math.ceil(height / 2), width, height);
  return canvas.encodeSync('jpeg', 95);
};

/** RGB rows with PNG "Sub" filters (PDF /Predictor 15), then deflated, as many PDF writers store scans. */
export const pngPredicted = (pixels: Buffer, width: number): Buffer => {
  const stride = width * 3;
  const rows = pixels.length / stride;
  const out = Buffer.alloc(rows * (stride + 1));
  for (let y = 0; y < rows; y++) {
    out[y * (stride + 1)] = 1;
    for (let i = 0; i < stride; i++) {
      const left = i >= 3 ? pixels[y * stride + i - 3]! : 0;
      out[y * (stride + 1) + 1 + i] = (pixels[y * stride + i]! - left) & 0xff;
    }
  }
  return deflateSync(out);
};

/** The image XObject of a scan page: its stream (already encoded) and the dictionary entries that describe it. */
export interface ScanImage {
  width: number;
  height: number;
  /** e.g. `/Filter /DCTDecode /ColorSpace /DeviceRGB /BitsPerComponent 8`. */
  entries: string;
  data: Buffer;
}

export interface ScanPageOptions {
  /** Page size in points. @default [612, 792] */
  size?: [number, number];
  /** /Rotate of the page. @default 0 */
  rotate?: number;
  /** Content before the image's `q`, e.g. a clipping rectangle (`0 0 300 400 re W n`). */
  before?: string;
  /** Content drawn after the image (Helvetica is /F1), e.g. a visible line of text. */
  extraContent?: string;
}

/** A one-page PDF whose page is one image filling it (`q W 0 0 H 0 0 cm /Im1 Do Q`), as scanners write them. */
export const scanPdf = (image: ScanImage, options: ScanPageOptions = {}): Buffer => {
  const [width, height] = options.size ?? [612, 792];
  const content = Buffer.from(`${options.before ?? ''}\nq ${width} 0 0 ${height} 0 0 cm /Im1 Do Q\n${options.extraContent ?? ''}`, 'latin1');
  const deflated = deflateSync(content);
  return pdfFile([
    { body: '<< /Type /Catalog /Pages 2 0 R >>' },
    { body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    {
      body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}]${options.rotate ? ` /Rotate ${options.rotate}` : ''} /Resources << /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >> /Contents 4 0 R >>`,
    },
    { body: `<< /Length ${deflated.length} /Filter /FlateDecode >>`, stream: deflated },
    { body: `<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} ${image.entries} /Length ${image.data.length} >>`, stream: image.data },
    { body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>' },
  ]);
};

/** A JPEG scan page: the two-band image as DCTDecode in DeviceRGB. */
export const jpegScanPdf = (width: number, height: number, top: Rgb, bottom: Rgb, options?: ScanPageOptions): Buffer =>
  scanPdf({ width, height, entries: '/Filter /DCTDecode /ColorSpace /DeviceRGB /BitsPerComponent 8', data: twoBandJpeg(width, height, top, bottom) }, options);

/** A Flate scan page: the two-band image as 8-bit RGB, deflated with the PNG predictor. */
export const flateScanPdf = (width: number, height: number, top: Rgb, bottom: Rgb, options?: ScanPageOptions): Buffer =>
  scanPdf(
    {
      width,
      height,
      entries: `/Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns ${width} >> /ColorSpace /DeviceRGB /BitsPerComponent 8`,
      data: pngPredicted(twoBandPixels(width, height, top, bottom), width),
    },
    options,
  );

const pngChunk = (type: string, data: Buffer): Buffer => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const frame = Buffer.alloc(4);
  frame.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([frame, body, crc]);
};

/** A 1-bit PNG with a 2-colour palette, as scanners write bilevel pages: the top half colour 0, the bottom colour 1. */
export const bilevelPalettePng = (width: number, height: number, zero: Rgb, one: Rgb): Buffer => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 3, 0, 0, 0], 8); // bit depth 1, palette, deflate, no filter method, not interlaced
  const stride = Math.ceil(width / 8) + 1;
  const rows = Buffer.alloc(stride * height); // filter byte 0 on every row
  for (let y = Math.ceil(height / 2); y < height; y++) rows.fill(0xff, y * stride + 1, (y + 1) * stride);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('PLTE', Buffer.from([...zero, ...one])),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
};
