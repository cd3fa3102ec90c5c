/**
 * One page image through tesseract, with orientation detection only where it pays: the first pass runs without
 * it; a page read with low confidence (upside down, or turned by 270 degrees, reads as confident-less garbage)
 * is read again with orientation and script detection, and the better reading is kept.
 */
import { readFile, rm } from 'node:fs/promises';
import { OcrFailure } from '../../domain/ocr/ports';
import { ranOutOfMemory, runProcess, type ProcessLimits } from './tesseract-processes';

export interface PageText {
  text: string;
  /** Confidences (0..100) of the words read on the page. */
  confidences: number[];
  /** Tesseract runs it took: 2 when the orientation pass ran. */
  passes: 1 | 2;
}

/**
 * Below this mean word confidence (0..100) a page is read again with orientation detection. Upright pages of
 * the corpus read at 62-97 (62 and 69 for pages of a few words beside pictures, 89-97 for pages of text) and
 * the generated scans at 96; pages upside down or turned by 270 degrees at 21-36 (tesseract's layout analysis
 * reads pages turned by 90 degrees itself). bench/README.md has the measurements.
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
  image: string;
  /** Path prefix of tesseract's outputs (`.txt`, `.tsv`), removed after reading. */
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
  const first = await pass(read, '3');
  if (!read.withOsd || !needsOrientationPass(first.confidences)) return first;
  // psm 1: automatic page segmentation with orientation and script detection.
  const second = await pass(read, '1');
  return { ...better(first, second), passes: 2 };
}

async function pass(read: PageRead, psm: '1' | '3'): Promise<PageText> {
  const { image, outputRoot: output, page } = read;
  const args = [image, output, '-l', read.languages, '--psm', psm];
  if (read.dpi) args.push('--dpi', String(read.dpi));
  args.push('txt', 'tsv');
  const result = await runProcess(read.tesseract, args, read.limits);
  try {
    if (result.code !== 0) {
      if (/failed loading language|error opening data file/i.test(result.stderr)) {
        throw new Error(`tesseract cannot load its language data: ${result.stderr.trim().split('\n').pop() ?? ''}`);
      }
      if (ranOutOfMemory(result)) throw new OcrFailure('too_large', `Page ${page} needs more memory to read than allowed`);
      throw new OcrFailure('unreadable_file', `Page ${page} cannot be read as an image`);
    }
    const [text, tsv] = await Promise.all([readFile(`${output}.txt`, 'utf8'), readFile(`${output}.tsv`, 'utf8')]);
    return { text: text.trim(), confidences: wordConfidences(tsv), passes: 1 };
  } finally {
    await Promise.all([rm(`${output}.txt`, { force: true }), rm(`${output}.tsv`, { force: true })]);
  }
}

const TSV_WORD_LEVEL = '5';

/** Word confidences from tesseract's TSV: level-5 rows with a confidence of 0 or more and some text. */
export function wordConfidences(tsv: string): number[] {
  const confidences: number[] = [];
  for (const line of tsv.split('\n').slice(1)) {
    const columns = line.split('\t');
    if (columns[0] !== TSV_WORD_LEVEL || columns.length < 12) continue;
    const confidence = Number(columns[10]);
    const text = columns.slice(11).join('\t').trim();
    if (text && Number.isFinite(confidence) && confidence >= 0) confidences.push(confidence);
  }
  return confidences;
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
const mean = (values: readonly number[]): number => (values.length > 0 ? sum(values) / values.length : 0);
