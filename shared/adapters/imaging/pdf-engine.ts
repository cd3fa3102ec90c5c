/**
 * pdf.js (the `pdfjs-dist` legacy build for Node, Apache-2.0) as the imaging worker runs it: in the worker's own
 * thread (pdf.js's "fake worker", since the imaging worker already is the thread that may be stopped), with its
 * data files (standard fonts, CMaps, the JBIG2/JPEG 2000/ICC decoders' WebAssembly) read from disk, and every
 * canvas it draws on created by {@link BoundedCanvasFactory} on `@napi-rs/canvas` (Skia, MIT), whose pixel
 * memory is native, outside the V8 heap limit, and so bounded here.
 * Import it from the worker only: it sets globals (`pdfjsWorker`, and pdf.js's DOMMatrix/Path2D polyfills).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.min.mjs';
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.min.mjs';
import { FileRefusal } from './jobs';

// pdf.js runs its parser in this thread when it finds the worker's message handler here (no nested worker).
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsWorker;

/**
 * The folder of pdf.js's data files: `pdfjs/<name>/` beside this module once bundled (the Lambda bundling copies
 * them there), else the package's own in node_modules. pdf.js wants it with a trailing separator.
 */
const dataDir = (name: 'standard_fonts' | 'cmaps' | 'wasm' | 'iccs'): string => {
  const bundled = fileURLToPath(new URL(`./pdfjs/${name}/`, import.meta.url));
  if (existsSync(bundled)) return bundled;
  const manifest = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
  return `${path.join(path.dirname(manifest), name)}${path.sep}`;
};

const DATA = {
  standardFontDataUrl: dataDir('standard_fonts'),
  cMapUrl: dataDir('cmaps'),
  wasmUrl: dataDir('wasm'),
  iccUrl: dataDir('iccs'),
};

interface CanvasAndContext {
  canvas: Canvas | null;
  context: SKRSContext2D | null;
}

/** The pixels of every canvas alive in this worker, against the cap set by {@link setCanvasPixelCap}. */
let livePixels = 0;
let maxLivePixels = Number.POSITIVE_INFINITY;

/** Caps the pixels of the canvases alive at once in this worker (4 bytes each, native memory). */
export const setCanvasPixelCap = (maxPixels: number): void => {
  maxLivePixels = maxPixels;
};

const claim = (width: number, height: number): void => {
  if (!(width > 0 && height > 0)) throw new Error('Invalid canvas size');
  if (livePixels + width * height > maxLivePixels) {
    throw new FileRefusal('drawing it needs more memory than allowed');
  }
  livePixels += width * height;
};

const release = (canvas: Canvas | null): void => {
  if (canvas) livePixels = Math.max(0, livePixels - canvas.width * canvas.height);
};

/** Runs `work` with `width` x `height` pixels of native memory counted against the cap (a decoded image). */
export const holdingPixels = async <T>(width: number, height: number, work: () => Promise<T>): Promise<T> => {
  claim(width, height);
  try {
    return await work();
  } finally {
    livePixels = Math.max(0, livePixels - width * height);
  }
};

/** A canvas for the thumbnail itself, counted like pdf.js's own; give it back with {@link releaseCanvas}. */
export const boundedCanvas = (width: number, height: number): Canvas => {
  claim(width, height);
  return createCanvas(width, height);
};

export const releaseCanvas = (canvas: Canvas): void => {
  release(canvas);
  canvas.width = canvas.height = 0;
};

/**
 * pdf.js's canvas factory (the shape of its `BaseCanvasFactory`) on `@napi-rs/canvas`, refusing a canvas that
 * would take the live pixels over the cap: pdf.js makes temporary canvases the size of images, masks, patterns
 * and transparency groups, which a hostile page can declare as large as it likes.
 */
export class BoundedCanvasFactory {
  create(width: number, height: number): CanvasAndContext {
    claim(width, height);
    const canvas = createCanvas(width, height);
    return { canvas, context: canvas.getContext('2d') };
  }

  reset(entry: CanvasAndContext, width: number, height: number): void {
    if (!entry.canvas) throw new Error('Canvas is not specified');
    release(entry.canvas);
    claim(width, height);
    entry.canvas.width = width;
    entry.canvas.height = height;
  }

  destroy(entry: CanvasAndContext): void {
    if (!entry.canvas) throw new Error('Canvas is not specified');
    release(entry.canvas);
    entry.canvas.width = entry.canvas.height = 0;
    entry.canvas = null;
    entry.context = null;
  }
}

export type PdfDocument = pdfjs.PDFDocumentProxy;
export type PdfPage = pdfjs.PDFPageProxy;

/** True when pdf.js refused the document for want of a password. */
export const isPasswordError = (error: unknown): boolean => (error as { name?: string } | null)?.name === 'PasswordException';

/**
 * Opens a PDF with pdf.js. `maxImagePixels` is pdf.js's own bound on one image's pixels (a larger one is left
 * undrawn): a second line behind the pixel check done before rendering.
 */
export const openPdf = async (bytes: Uint8Array, maxImagePixels: number): Promise<PdfDocument> =>
  pdfjs.getDocument({
    // pdf.js takes ownership of (detaches) the buffer it is given: a copy keeps the job's bytes readable.
    data: bytes.slice(),
    ...DATA,
    CanvasFactory: BoundedCanvasFactory,
    maxImageSize: maxImagePixels,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  } as Parameters<typeof pdfjs.getDocument>[0]).promise;
