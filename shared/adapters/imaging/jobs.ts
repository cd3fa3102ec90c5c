/**
 * The interface between the imaging pool and its worker processes: the kinds of job, what each takes and
 * gives back, and the messages that carry them. Nothing here names a PDF library, so the engine the worker runs
 * (pdf.js on @napi-rs/canvas today) can be replaced without touching the pool or its callers.
 */
import type { ImageFormat } from './formats';

/** Render the first page of a file (or an image file) to a thumbnail that fits in a box. */
export interface RenderJob {
  bytes: Uint8Array;
  format: ImageFormat;
  box: { width: number; height: number };
  /** Refuse before decoding when the images to draw hold more pixels than this, all together. */
  maxPixels: number;
  /** Refuse a page whose content (streams the interpreter reads, inflated) is larger than this. */
  maxContentBytes: number;
  output: 'png' | 'jpeg';
  jpegQuality: number;
}

/** The rendered thumbnail, as the worker sends it back. */
export interface RenderOutput {
  bytes: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

/** Read the text layer of a PDF, page by page, within bounds. */
export interface TextLayerJob {
  bytes: Uint8Array;
  /** Documents with more pages have no text layer worth reading (null). */
  maxPages: number;
  /** A page that draws more glyphs than this is refused: its text would not fit in memory. */
  maxCharsPerPage: number;
  /** Refuse a page whose content (streams the interpreter reads, inflated) is larger than this. */
  maxContentBytes: number;
}

/** What one page holds: its text layer, and whether it draws images or anything else (see `PageLayer`). */
export interface TextLayerPage {
  text: string;
  drawsImages: boolean;
  drawsOther: boolean;
}

/** What every page holds, or null when the PDF cannot be read here (OCR then reads it whole). */
export type TextLayerOutput = { pages: TextLayerPage[] } | null;

/** Copy some pages of a PDF each into a PDF of its own (for an OCR engine that reads only the pages needing it). */
export interface PagePdfJob {
  bytes: Uint8Array;
  /** 1-based. */
  pages: readonly number[];
}

/** Draw some pages of a PDF small and tell which are blank paper (the blank rule of the per-page decision). */
export interface BlankPagesJob {
  bytes: Uint8Array;
  /** 1-based, each checked in turn. */
  pages: readonly number[];
  /** The resolution the pages are drawn at, in dots per inch. */
  dpi: number;
  /** A page whose images hold more pixels than this, all together, is not drawn (answered not blank). */
  maxPixels: number;
  /** A page whose content (streams the interpreter reads, inflated) is larger than this is not drawn either. */
  maxContentBytes: number;
}

/** Draw each page of an image file small and tell which are blank paper (the blank rule of the per-page decision). */
export interface BlankImageJob {
  bytes: Uint8Array;
  format: Exclude<ImageFormat, 'pdf'>;
  /** The resolution the pages are drawn at, in dots per inch of the page the image makes (its stated resolution). */
  dpi: number;
  /** A page with more pixels than this is not decoded (answered not blank). */
  maxPixels: number;
  /** A file with more pages than this is not decoded (each answered not blank). */
  maxPages: number;
}

/** One word to lay on a page of a searchable PDF, its box as fractions of the upright page (origin top left). */
export interface PlacedWord {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Write a searchable PDF: the original file and, for each of its pages in order, the words to lay on it (null: none). */
export interface SearchablePdfJob {
  bytes: Uint8Array;
  format: ImageFormat;
  pages: (readonly PlacedWord[] | null)[];
  /** Files with more pages are refused. */
  maxPages: number;
  /** An image page with more pixels than this is refused before it is decoded. */
  maxPixels: number;
}

/** Every kind of job, with its input and output. */
export interface ImagingJobs {
  thumbnail: { input: RenderJob; output: RenderOutput };
  'text-layer': { input: TextLayerJob; output: TextLayerOutput };
  'page-pdf': { input: PagePdfJob; output: Uint8Array[] };
  'searchable-pdf': { input: SearchablePdfJob; output: Uint8Array };
  'blank-pages': { input: BlankPagesJob; output: boolean[] };
  'blank-image': { input: BlankImageJob; output: boolean[] };
}

export type ImagingJobKind = keyof ImagingJobs;

/** A job sent to a worker. */
export interface WorkerRequest<K extends ImagingJobKind = ImagingJobKind> {
  id: number;
  kind: K;
  input: ImagingJobs[K]['input'];
}

/** The answer, with the bytes of native, WebAssembly and other off-heap memory the worker holds after the job. */
export type WorkerResponse = { id: number; externalBytes: number } & (
  | { ok: true; output: ImagingJobs[ImagingJobKind]['output'] }
  | { ok: false; reason: string }
);

const plain = (bytes: Buffer): Uint8Array => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * A job's input or output as it was sent: the IPC channel's structured clone hands a `Uint8Array` over as a
 * `Buffer`, which pdf.js refuses and callers do not expect. Both sides pass what they receive through this.
 */
export const withPlainBytes = <T>(value: T): T => {
  if (Buffer.isBuffer(value)) return plain(value) as T;
  if (value && typeof value === 'object' && 'bytes' in value && Buffer.isBuffer(value.bytes)) return { ...value, bytes: plain(value.bytes) };
  return value;
};

/** Sent once, when the worker has loaded its libraries and takes jobs. */
export interface WorkerReady {
  ready: true;
}

/**
 * The environment variable that gives each worker its memory cap outside its V8 heap (which the pool's
 * `--max-old-space-size` caps at the same size): the pixels of its canvases and decoded images (4 bytes each), and
 * the WebAssembly memory of pdf.js's image decoders, in bytes. Growth beyond it fails the job as over the bound.
 */
export const WORKER_MEMORY_BYTES_ENV = 'IMAGING_WORKER_MEMORY_BYTES';

/** The file cannot be processed; the message is safe to show to the client. */
export class FileRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileRefusal';
  }
}
