/**
 * Which pages of an image file (PNG, JPEG, WebP, each page of a TIFF) are blank paper, from their pixels drawn
 * small: the blank rule of the per-page decision (`blankPixels`, page-texts.ts), as blank-pages.ts applies it to a
 * PDF's scanned pages, for an OCR engine that is paid for each image it is sent (Textract). Each page is drawn as
 * the page the searchable PDF makes of it (its stated resolution, 300 dpi when none: image-pages.ts) at `job.dpi`;
 * an image with transparency is never called blank.
 * Sizes are read from the headers and bounded before anything is decoded; a large PNG is reduced as its rows
 * inflate. Runs in the imaging worker, within its time and memory bounds.
 */
import { ImageData, loadImage, type Canvas, type Image } from '@napi-rs/canvas';
import * as utifModule from 'utif2';
import { blankPixels } from '../../domain/ocr/page-texts';
import { imagePages, pageSize } from '../pdf/image-pages';
import { rasterDimensions } from './formats';
import { FileRefusal, type BlankImageJob } from './jobs';
import { boundedCanvas, holdingPixels, releaseCanvas } from './pdf-engine';
import { reducePng } from './png-rows';

/** UTIF.js is a CommonJS object: under ESM its functions are on the default export. */
const UTIF = ((utifModule as { default?: typeof utifModule }).default ?? utifModule) as typeof utifModule;

interface Size {
  width: number;
  height: number;
}

/**
 * Whether `source` drawn at `size` is blank paper. Only an opaque image can be: a decoder leaves the rows it could
 * not decode transparent, which on white would look like paper, so an image with any transparency is read.
 */
const blankDrawn = (source: Canvas | Image, size: Size): boolean => {
  const canvas = boundedCanvas(size.width, size.height);
  try {
    const context = canvas.getContext('2d');
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(source, 0, 0, size.width, size.height);
    const { data } = context.getImageData(0, 0, size.width, size.height);
    const grey = new Uint8Array(size.width * size.height);
    for (let i = 0; i < grey.length; i++) {
      if (data[i * 4 + 3] !== 255) return false;
      grey[i] = (data[i * 4]! * 299 + data[i * 4 + 1]! * 587 + data[i * 4 + 2]! * 114) / 1000;
    }
    return blankPixels(grey, 255);
  } finally {
    releaseCanvas(canvas);
  }
};

/** RGBA pixels on a canvas of their own, counted against the pixel cap. */
const canvasOf = (rgba: Uint8ClampedArray, width: number, height: number): Canvas => {
  const canvas = boundedCanvas(width, height);
  canvas.getContext('2d').putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas;
};

/** Draws `source` (a canvas of its own) and gives its pixels back. */
const blankCanvas = (source: Canvas, size: Size): boolean => {
  try {
    return blankDrawn(source, size);
  } finally {
    releaseCanvas(source);
  }
};

const blankTiff = async (job: BlankImageJob, sizes: Size[]): Promise<boolean[]> => {
  const buffer = job.bytes.buffer.slice(job.bytes.byteOffset, job.bytes.byteOffset + job.bytes.byteLength) as ArrayBuffer;
  const ifds = UTIF.decode(buffer);
  const blank: boolean[] = [];
  for (const [i, ifd] of ifds.entries()) {
    const size = sizes[i]!;
    const width = (ifd as { t256?: number[] }).t256?.[0] ?? 0;
    const height = (ifd as { t257?: number[] }).t257?.[0] ?? 0;
    blank.push(
      await holdingPixels(width, height, async () => {
        UTIF.decodeImage(buffer, ifd);
        const rgba = UTIF.toRGBA8(ifd);
        if (rgba.length !== width * height * 4) throw new FileRefusal('the TIFF image has an unexpected layout');
        return blankCanvas(canvasOf(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length), width, height), size);
      }),
    );
  }
  return blank;
};

const blankRaster = async (job: BlankImageJob & { format: 'png' | 'jpeg' | 'webp' }, header: Size, size: Size): Promise<boolean> => {
  // A PNG the reducer cannot read goes to Skia; one whose rows are corrupt is not checked.
  const reduced = job.format === 'png' ? await reducePng(job.bytes, size) : undefined;
  if (reduced) return blankCanvas(canvasOf(reduced.rgba, reduced.width, reduced.height), size);
  // The decoded image is native memory: its pixels count against the cap from before it is decoded.
  return holdingPixels(header.width, header.height, async () => {
    const source = await loadImage(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength));
    if (source.width * source.height > job.maxPixels) throw new FileRefusal('the image has more pixels than its header says');
    return blankDrawn(source, size);
  });
};

/**
 * For each page of the image file, in order, whether it is blank paper. A file with more than `job.maxPages` pages
 * is answered not blank page by page, undecoded. Throws when the file cannot be decoded or a page has more than
 * `job.maxPixels` pixels: the caller then sends the engine the file.
 */
export const blankImagePages = async (job: BlankImageJob): Promise<boolean[]> => {
  const header = job.format === 'tiff' ? undefined : rasterDimensions(job.bytes, job.format);
  if (job.format !== 'tiff' && !header) throw new FileRefusal(`the ${job.format.toUpperCase()} header is malformed`);
  const pages = await imagePages(job.bytes, job.format, header, job.maxPixels);
  if (pages.length === 0) throw new FileRefusal('the file has no image');
  if (pages.length > job.maxPages) return pages.map(() => false);
  const sizes = pages.map((page) => {
    const points = pageSize(page);
    return { width: Math.max(1, Math.round((points.width * job.dpi) / 72)), height: Math.max(1, Math.round((points.height * job.dpi) / 72)) };
  });
  if (job.format === 'tiff') return blankTiff(job, sizes);
  return [await blankRaster({ ...job, format: job.format }, header!, sizes[0]!)];
};
