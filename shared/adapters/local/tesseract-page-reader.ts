/**
 * One page image through tesseract, with orientation detection only where it pays: the first pass runs without
 * it; a page read with low confidence (upside down, or turned by 270 degrees, reads as confident-less garbage)
 * is read again with orientation and script detection, and the better reading is kept. The first pass goes to a
 * long-lived tesseract stream (tesseract-streams.ts); the orientation pass, rare, to a process of its own.
 */
import { readFile, rm } from 'node:fs/promises';
import { OcrFailure } from '../../domain/ocr/ports';
import { ranOutOfMemory, runProcess, type ProcessLimits, type ProcessResult } from './tesseract-processes';
import { StreamEnded } from './tesseract-stream';
import type { TesseractStreams } from './tesseract-streams';
import type { OcrWord } from '../../domain/ocr/page-texts';
import { tsvWords, wordConfidences } from './tesseract-tsv';

export interface PageText {
  text: string;
  /** Confidences (0..100) of the words read on the page. */
  confidences: number[];
  /** The words read and where, as fractions of the page (absent for a page not read). */
  boxes?: OcrWord[];
  /** Tesseract runs it took: 2 when the orientation pass ran; 0 for a page found blank, which was not read. */
  passes: 0 | 1 | 2;
  /** The page's raster was blank (blank-raster.ts): tesseract never saw it. */
  blank?: true;
}

/**
 * Below this mean word confidence (0..100) a page is read again with orientation detection. It lies between
 * the two groups the corpus falls into: upright pages, even those of a few words beside pictures, read well
 * above it, and pages upside down or turned by 270 degrees well below (tesseract's layout analysis reads pages
 * turned by 90 degrees itself). `npm run bench:ocr` prints the passes and error rate of a page in each turn.
 */
export const ORIENTATION_BELOW_CONFIDENCE = 50;

/** True when a first reading is weak enough that orientation detection may pay: some words, little confidence. */
export function needsOrientationPass(confidences: readonly number[]): boolean {
  return confidences.length > 0 && mean(confidences) < ORIENTATION_BELOW_CONFIDENCE;
}

/** The reading with the more confident words in total: the right way up reads more words, and surer. */
const better = (a: PageText, b: PageText): PageText => (sum(b.confidences) > sum(a.confidences) ? b : a);

export interface PageRead {
  tesseract: string;
  /** The engine's streams, which read the first pass. */
  streams: TesseractStreams;
  image: string;
  /** The path of a copy of MARKER_PAGE (tesseract-stream.ts), for the first pass. */
  marker: string;
  /** Path prefix of the orientation pass's outputs (`.txt`, `.tsv`), removed after reading. */
  outputRoot: string;
  page: number;
  languages: string;
  /** For rasters without resolution information (pdftoppm's PGM). */
  dpi: number | undefined;
  /** Whether `osd` data is installed, without which the orientation pass cannot run. */
  withOsd: boolean;
  limits: ProcessLimits;
}

/** Reads one page: default page segmentation, then (see {@link needsOrientationPass}) with orientation detection. */
export async function readPage(read: PageRead): Promise<PageText> {
  const first = await firstPass(read);
  if (!read.withOsd || !needsOrientationPass(first.confidences)) return first;
  const second = await orientationPass(read);
  return { ...better(first, second), passes: 2 };
}

/** Default page segmentation (`--psm 3`), by a stream. */
async function firstPass(read: PageRead): Promise<PageText> {
  const { tesseract, languages, dpi, image, marker, limits } = read;
  try {
    const page = await read.streams.read({ tesseract, languages, dpi, image, marker, limits });
    return { text: page.text, confidences: page.confidences, boxes: page.boxes, passes: 1 };
  } catch (error) {
    if (!(error instanceof StreamEnded)) throw error;
    throw pageFailure(error.result, read.page);
  }
}

/** psm 1: automatic page segmentation with orientation and script detection, by a process of its own. */
async function orientationPass(read: PageRead): Promise<PageText> {
  const { image, outputRoot: output, page } = read;
  const args = [image, output, '-l', read.languages, '--psm', '1'];
  if (read.dpi) args.push('--dpi', String(read.dpi));
  args.push('txt', 'tsv');
  const result = await runProcess(read.tesseract, args, read.limits);
  try {
    if (result.code !== 0) throw pageFailure(result, page);
    const [text, tsv] = await Promise.all([readFile(`${output}.txt`, 'utf8'), readFile(`${output}.tsv`, 'utf8')]);
    return { text: text.trim(), confidences: wordConfidences(tsv), boxes: tsvWords(tsv), passes: 1 };
  } finally {
    await Promise.all([rm(`${output}.txt`, { force: true }), rm(`${output}.tsv`, { force: true })]);
  }
}

/** Why tesseract, which ran, failed on a page: the machine's fault (missing language data) or the file's. */
function pageFailure(result: ProcessResult, page: number): Error {
  if (/failed loading language|error opening data file/i.test(result.stderr)) {
    return new Error(`tesseract cannot load its language data: ${result.stderr.trim().split('\n').pop() ?? ''}`);
  }
  if (ranOutOfMemory(result)) return new OcrFailure('too_large', `Page ${page} needs more memory to read than allowed`);
  return new OcrFailure('unreadable_file', `Page ${page} cannot be read as an image`);
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
const mean = (values: readonly number[]): number => (values.length > 0 ? sum(values) / values.length : 0);
