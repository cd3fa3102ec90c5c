import { ImageData, loadImage, type Canvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import * as utifModule from 'utif2';
import { checkPageContent, loadObjects } from './content-budget';
import { rasterDimensions, type ImageFormat } from './formats';
import { drawImageOnlyPage } from './image-only-page';
import { reductionFactor } from './image-reduce';
import { FileRefusal, type RenderJob, type RenderOutput } from './jobs';
import { multiply, type Matrix } from './page-images';
import { reducePng } from './png-rows';
import { boundedCanvas, holdingPixels, isPasswordError, openPdf, releaseCanvas, type PdfDocument } from './pdf-engine';

/** UTIF.js is a CommonJS object: under ESM its functions are on the default export. */
const UTIF = ((utifModule as { default?: typeof utifModule }).default ?? utifModule) as typeof utifModule;

interface Size {
  width: number;
  height: number;
}

/**
 * The largest integer size with the aspect ratio of `natural` that fits in `box`. Raster sources are never
 * enlarged beyond their own pixel size (`upscale: false`); vector pages are scaled to the box.
 */
export const fitInBox = (natural: Size, box: Size, upscale: boolean): Size => {
  let scale = Math.min(box.width / natural.width, box.height / natural.height);
  if (!upscale) scale = Math.min(scale, 1);
  return {
    width: Math.max(1, Math.min(box.width, Math.round(natural.width * scale))),
    height: Math.max(1, Math.min(box.height, Math.round(natural.height * scale))),
  };
};

const checkPixels = (width: number, height: number, maxPixels: number): void => {
  if (!(width > 0 && height > 0)) throw new FileRefusal('the image has no pixels');
  if (width * height > maxPixels) {
    throw new FileRefusal(
      `the image is ${width}x${height} pixels, more than the ${Math.round(maxPixels / 1e6)} megapixels a thumbnail may decode`,
    );
  }
};

const encode = async (canvas: Canvas, job: RenderJob): Promise<RenderOutput> => {
  const bytes = job.output === 'jpeg' ? await canvas.encode('jpeg', job.jpegQuality) : await canvas.encode('png');
  return {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    mimeType: job.output === 'jpeg' ? 'image/jpeg' : 'image/png',
    width: canvas.width,
    height: canvas.height,
  };
};

/** A white canvas of `size` (transparency is composited on white, as a page would show it), counted against the pixel cap. */
const whiteCanvas = (size: Size): { canvas: Canvas; context: SKRSContext2D } => {
  const canvas = boundedCanvas(size.width, size.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size.width, size.height);
  return { canvas, context };
};

const renderPdf = async (job: RenderJob, owned: Canvas[]): Promise<RenderOutput> => {
  let document: PdfDocument | undefined;
  try {
    try {
      document = await openPdf(job.bytes, job.maxPixels);
    } catch (error) {
      if (isPasswordError(error)) throw new FileRefusal('the document is encrypted');
      throw error;
    }
    if (document.numPages < 1) throw new FileRefusal('the document has no pages');
    const page = await document.getPage(1);
    const objects = await loadObjects(job.bytes);
    const images = checkPageContent(objects, page.ref, 1, job.maxContentBytes, new Map());
    const total = images.reduce((sum, { width, height }) => sum + width * height, 0);
    for (const image of images) checkPixels(image.width, image.height, job.maxPixels);
    if (total > job.maxPixels) {
      throw new FileRefusal(`the page draws ${images.length} images of ${(total / 1e6).toFixed(0)} megapixels together, too many to decode`);
    }

    const natural = page.getViewport({ scale: 1 });
    if (!(natural.width > 0 && natural.height > 0 && Number.isFinite(natural.width * natural.height))) {
      throw new FileRefusal('the page has no area');
    }
    const size = fitInBox(natural, job.box, true);
    const { canvas, context } = whiteCanvas(size);
    owned.push(canvas);
    const scale: Matrix = [size.width / natural.width, 0, 0, size.height / natural.height, 0, 0];
    // A scan is drawn from its images reduced as they are read; other pages by pdf.js in full.
    if (await drawImageOnlyPage(page, objects, context, multiply(scale, natural.transform as Matrix), size)) return await encode(canvas, job);
    type RenderParameters = Parameters<typeof page.render>[0];
    await page.render({
      canvas: canvas as unknown as RenderParameters['canvas'],
      canvasContext: context as unknown as RenderParameters['canvasContext'],
      viewport: natural,
      transform: scale,
    }).promise;
    return await encode(canvas, job);
  } finally {
    await document?.destroy().catch(() => undefined);
  }
};

/** Decodes the first image of a TIFF (UTIF.js, MIT) onto a canvas of its size. */
const tiffCanvas = (bytes: Uint8Array, size: Size, owned: Canvas[]): Canvas => {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const [first] = UTIF.decode(buffer);
  if (!first) throw new FileRefusal('the TIFF file has no image');
  UTIF.decodeImage(buffer, first);
  const rgba = UTIF.toRGBA8(first);
  if (rgba.length !== size.width * size.height * 4) throw new FileRefusal('the TIFF image has an unexpected layout');
  const canvas = boundedCanvas(size.width, size.height);
  owned.push(canvas);
  canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length), size.width, size.height), 0, 0);
  return canvas;
};

const renderRaster = async (job: RenderJob & { format: Exclude<ImageFormat, 'pdf'> }, owned: Canvas[]): Promise<RenderOutput> => {
  const header = rasterDimensions(job.bytes, job.format);
  if (!header) throw new FileRefusal(`the ${job.format.toUpperCase()} header is malformed`);
  checkPixels(header.width, header.height, job.maxPixels);
  const shrinks = (size: Size): boolean => reductionFactor(header.width, size.width) > 1 || reductionFactor(header.height, size.height) > 1;
  if (job.format === 'png' && shrinks(fitInBox(header, job.box, false))) {
    // Large PNG scans are reduced as their rows inflate (Skia decodes smaller ones faster); other kinds, and any
    // the reducer cannot read, go to Skia.
    const size = fitInBox(header, job.box, false);
    const reduced = await reducePng(job.bytes, size).catch(() => undefined);
    if (reduced) {
      const { canvas, context } = whiteCanvas(size);
      owned.push(canvas);
      const small = boundedCanvas(reduced.width, reduced.height);
      owned.push(small);
      small.getContext('2d').putImageData(new ImageData(reduced.rgba, reduced.width, reduced.height), 0, 0);
      context.imageSmoothingEnabled = true;
      context.imageSmoothingQuality = 'high';
      context.drawImage(small, 0, 0, size.width, size.height);
      return encode(canvas, job);
    }
  }
  // The decoded image is native memory: its pixels count against the cap from before it is decoded.
  return holdingPixels(header.width, header.height, async () => {
    const source: Canvas | Image =
      job.format === 'tiff' ? tiffCanvas(job.bytes, header, owned) : await loadImage(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength));
    checkPixels(source.width, source.height, job.maxPixels);
    const size = fitInBox(source, job.box, false);
    const { canvas, context } = whiteCanvas(size);
    owned.push(canvas);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(source, 0, 0, size.width, size.height);
    return encode(canvas, job);
  });
};

/**
 * Renders the first page of a PDF (pdf.js on `@napi-rs/canvas`), or an image file (PNG, JPEG, WebP: Skia's
 * decoders; TIFF: UTIF.js), to a thumbnail that fits in `job.box`. Throws {@link FileRefusal} when the file
 * cannot or may not be decoded; the libraries' own errors (corrupt files) come through as they are and the
 * caller treats them alike.
 */
export const renderThumbnail = async (job: RenderJob): Promise<RenderOutput> => {
  const owned: Canvas[] = [];
  try {
    if (job.format === 'pdf') return await renderPdf(job, owned);
    return await renderRaster({ ...job, format: job.format }, owned);
  } finally {
    for (const canvas of owned) releaseCanvas(canvas);
  }
};
