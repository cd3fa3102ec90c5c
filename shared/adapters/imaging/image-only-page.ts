/**
 * Thumbnails of pages that only draw images (scans, the common case), without pdf.js's full render: pdf.js
 * decodes an image at its full size and draws it through canvases of that size (a 9000x9000 scan is a 243 MB
 * buffer and seconds of drawing), where a thumbnail needs a few hundred pixels a side. Here each image is
 * reduced while it is read, then drawn once at the thumbnail's scale:
 *
 * 1. JPEG and Flate images in grey or RGB are decoded without pdf.js: JPEG by Skia's decoder (native), Flate by
 *    zlib a chunk at a time with the rows box-filtered as they come (image-reduce.ts).
 * 2. Other images (JBIG2, CCITT, JPEG 2000, indexed colour, masks) are decoded by pdf.js (its operator list, no
 *    drawing), then reduced the same way, when the operator list shows the page draws nothing else.
 * 3. Anything else (text, vector drawing, transparency, annotations) is left to the full render.
 *
 * Bounds stay those of the full render: the images' pixels were checked against the job's bound before this
 * runs (content-budget.ts), decoded JPEG pixels are counted against the worker's native-memory cap, and the job's
 * timeout stops it like any render.
 */
import { ImageData, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.min.mjs';
import type { PdfObjects } from './content-budget';
import { BoxReducer, reduceFlateRows, reductionFactor, rowBytes, type PixelLayout, type ReducedImage } from './image-reduce';
import { FileRefusal } from './jobs';
import { multiply, pageImages, type ClipRect, type DirectImage, type Matrix, type PlacedImage } from './page-images';
import { boundedCanvas, holdingPixels, releaseCanvas, type PdfPage } from './pdf-engine';

/** The device pixels an image's unit square spans along its own axes once `toDevice` is applied. */
const footprint = (toDevice: Matrix): { width: number; height: number } => ({
  width: Math.hypot(toDevice[0], toDevice[1]),
  height: Math.hypot(toDevice[2], toDevice[3]),
});

/** Draws an image of `width` x `height` pixels through `toDevice` (its unit square to the canvas), image row 0 on top. */
const drawUnitSquare = (
  context: SKRSContext2D,
  toDevice: Matrix,
  source: Parameters<SKRSContext2D['drawImage']>[0],
  width: number,
  height: number,
): void => {
  const [a, b, c, d, e, f] = multiply(toDevice, [1 / width, 0, 0, -1 / height, 0, 1]);
  context.save();
  context.setTransform(a, b, c, d, e, f);
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, width, height);
  context.restore();
};

const drawReduced = (context: SKRSContext2D, toDevice: Matrix, image: ReducedImage): void => {
  const canvas = boundedCanvas(image.width, image.height);
  try {
    canvas.getContext('2d').putImageData(new ImageData(image.rgba, image.width, image.height), 0, 0);
    drawUnitSquare(context, toDevice, canvas, image.width, image.height);
  } finally {
    releaseCanvas(canvas);
  }
};

const reducerFor = (layout: PixelLayout, width: number, height: number, toDevice: Matrix): BoxReducer => {
  const target = footprint(toDevice);
  return new BoxReducer(layout, width, height, reductionFactor(width, target.width), reductionFactor(height, target.height));
};

/** Clips `context` to the rectangles, each through `base` and its own transform; undo with `context.restore()`. */
const clipTo = (context: SKRSContext2D, base: Matrix, clips: readonly ClipRect[]): void => {
  context.save();
  for (const { ctm, rect } of clips) {
    const [a, b, c, d, e, f] = multiply(base, ctm);
    context.setTransform(a, b, c, d, e, f);
    context.beginPath();
    context.rect(...rect);
    context.clip();
  }
  context.setTransform(1, 0, 0, 1, 0, 0);
};

const drawDirect = async (context: SKRSContext2D, toDevice: Matrix, image: DirectImage): Promise<void> => {
  if (image.kind === 'flate') {
    const { rows } = image;
    const reducer = reducerFor(rows.layout, rows.width, rows.height, toDevice);
    await reduceFlateRows(image.bytes, rows, reducer);
    drawReduced(context, toDevice, reducer.result());
    return;
  }
  // Skia decodes at full size (native memory, counted against the cap) and scales with mipmaps when drawing.
  await holdingPixels(image.width, image.height, async () => {
    const decoded = await loadImage(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
    if (decoded.width !== image.width || decoded.height !== image.height) throw new Error('the JPEG decodes to another size than declared');
    drawUnitSquare(context, toDevice, decoded, image.width, image.height);
  });
};

/** Image data as pdf.js's operator list hands it over (`ImageKind` 1-3; a bitmap only where OffscreenCanvas exists). */
interface PdfjsImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
  bitmap?: unknown;
}

const LAYOUT_OF_KIND: Record<number, PixelLayout> = {
  [pdfjs.ImageKind.GRAYSCALE_1BPP]: 'grey1',
  [pdfjs.ImageKind.RGB_24BPP]: 'rgb8',
  [pdfjs.ImageKind.RGBA_32BPP]: 'rgba8',
};

/** Operators of an image-only page besides the images: state, transforms and markers that change no pixel. */
const NEUTRAL_OPS = new Set<number>([
  pdfjs.OPS.save,
  pdfjs.OPS.restore,
  pdfjs.OPS.dependency,
  pdfjs.OPS.setRenderingIntent,
  pdfjs.OPS.setFlatness,
  pdfjs.OPS.setLineWidth,
  pdfjs.OPS.beginMarkedContent,
  pdfjs.OPS.endMarkedContent,
]);

/** A `setGState` whose entries leave an opaque image as it is (pdf.js gives them as [key, value] pairs). */
const isNeutralGState = (entries: [string, unknown][]): boolean =>
  entries.every(
    ([key, value]) =>
      (key === 'BM' && value === 'source-over') ||
      ((key === 'CA' || key === 'ca') && value === 1) ||
      ['LW', 'LC', 'LJ', 'ML', 'D', 'RI', 'FL', 'SM', 'TK', 'OP', 'op', 'OPM'].includes(key),
  );

/** The images an operator list draws with their transforms, or undefined when it draws anything else. */
const imagesOfOperatorList = (list: { fnArray: number[]; argsArray: unknown[][] }): { ctm: Matrix; image: string | PdfjsImage }[] | undefined => {
  const found: { ctm: Matrix; image: string | PdfjsImage }[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i]!;
    const args = list.argsArray[i] ?? [];
    if (fn === pdfjs.OPS.save) stack.push(ctm);
    else if (fn === pdfjs.OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === pdfjs.OPS.transform) ctm = multiply(ctm, Array.from(args as ArrayLike<number>) as Matrix);
    else if (fn === pdfjs.OPS.paintImageXObject) found.push({ ctm, image: String(args[0]) });
    else if (fn === pdfjs.OPS.paintInlineImageXObject) found.push({ ctm, image: args[0] as PdfjsImage });
    else if (fn === pdfjs.OPS.setGState) {
      if (!isNeutralGState(args[0] as [string, unknown][])) return undefined;
    } else if (!NEUTRAL_OPS.has(fn)) return undefined;
  }
  return found.length > 0 ? found : undefined;
};

/** Waits for an image pdf.js decodes after the operator list is done (page-local, or document-wide `g_` ids). */
const pdfjsImage = (page: PdfPage, id: string): Promise<PdfjsImage | null> =>
  new Promise((resolve) => (id.startsWith('g_') ? page.commonObjs : page.objs).get(id, resolve as (data: unknown) => void));

const drawWithPdfjsDecoding = async (page: PdfPage, context: SKRSContext2D, base: Matrix): Promise<boolean> => {
  const list = await page.getOperatorList();
  const placed = imagesOfOperatorList(list);
  if (!placed) return false;
  const decoded: { ctm: Matrix; image: PdfjsImage }[] = [];
  for (const { ctm, image } of placed) {
    const data = typeof image === 'string' ? await pdfjsImage(page, image) : image;
    const layout = data?.kind === undefined ? undefined : LAYOUT_OF_KIND[data.kind];
    if (!data?.data || !layout || data.bitmap) return false;
    if (data.data.length < rowBytes(layout, data.width) * data.height) return false;
    decoded.push({ ctm, image: data });
  }
  for (const { ctm, image } of decoded) {
    const layout = LAYOUT_OF_KIND[image.kind!]!;
    const toDevice = multiply(base, ctm);
    const reducer = reducerFor(layout, image.width, image.height, toDevice);
    const stride = rowBytes(layout, image.width);
    const bytes = image.data instanceof Uint8Array ? image.data : new Uint8Array(image.data!.buffer, image.data!.byteOffset, image.data!.length);
    for (let row = 0; row < image.height; row++) reducer.addRow(bytes, row * stride);
    drawReduced(context, toDevice, reducer.result());
  }
  return true;
};

/**
 * Draws page `page` onto `context` (a white canvas) through `base` (page space to canvas pixels) when the page
 * only draws images; false, with the canvas left white, when the full render must do it. Errors in decoding
 * the images here (a corrupt JPEG, a short Flate stream) also answer false, so pdf.js's repairs still apply;
 * a {@link FileRefusal} (a bound) is thrown.
 */
export const drawImageOnlyPage = async (page: PdfPage, objects: PdfObjects, context: SKRSContext2D, base: Matrix, size: { width: number; height: number }): Promise<boolean> => {
  const whiten = (): void => {
    context.save();
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size.width, size.height);
    context.restore();
  };
  const content = pageImages(objects, page.ref);
  if (content.kind === 'other') return false;
  if (content.kind === 'images' && content.images.every((image): image is PlacedImage & { direct: DirectImage } => image.direct !== undefined)) {
    try {
      for (const image of content.images) {
        clipTo(context, base, image.clips);
        await drawDirect(context, multiply(base, image.ctm), image.direct).finally(() => context.restore());
      }
      return true;
    } catch (error) {
      if (error instanceof FileRefusal) throw error;
      whiten();
    }
  }
  try {
    return await drawWithPdfjsDecoding(page, context, base);
  } catch (error) {
    if (error instanceof FileRefusal) throw error;
    whiten();
    return false;
  }
};
