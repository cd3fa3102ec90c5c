import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { OcrWord } from '../../shared/domain/ocr/page-texts';

const run = promisify(execFile);

/** A word as `pdftotext -bbox` gives it: its text and box in points, origin top left of the page as shown. */
export interface ExtractedWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface ExtractedPage {
  width: number;
  height: number;
  words: ExtractedWord[];
}

const unescape = (text: string): string =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/**
 * Every page's words and boxes, by poppler's `pdftotext -bbox` (what a viewer's search and selection find), and
 * its size as shown: pdftotext gives a turned page's words as shown but its size unturned.
 */
export async function extractWords(pdf: Uint8Array): Promise<ExtractedPage[]> {
  const turned = (await PDFDocument.load(pdf, { updateMetadata: false })).getPages().map((page) => Math.abs(page.getRotation().angle) % 180 === 90);
  return (await pdftotextWords(pdf)).map((page, i) => (turned[i] ? { ...page, width: page.height, height: page.width } : page));
}

async function pdftotextWords(pdf: Uint8Array): Promise<ExtractedPage[]> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'pdf-words-'));
  try {
    const file = path.join(directory, 'in.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-bbox', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    return [...stdout.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)].map(([, width, height, body]) => ({
      width: Number(width),
      height: Number(height),
      words: [...body!.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)].map(([, xMin, yMin, xMax, yMax, text]) => ({
        text: unescape(text!),
        xMin: Number(xMin),
        yMin: Number(yMin),
        xMax: Number(xMax),
        yMax: Number(yMax),
      })),
    }));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Words as compared: Unicode compatibility forms folded (a ligature "ﬁ" is "fi"), as an extractor may give them. */
const normal = (text: string): string => text.normalize('NFKC');

/** The share of `expected` words (a multiset) found among `extracted`. */
export function wordRecall(expected: readonly string[], extracted: readonly string[]): number {
  if (expected.length === 0) return 1;
  const left = new Map<string, number>();
  for (const word of extracted) left.set(normal(word), (left.get(normal(word)) ?? 0) + 1);
  let found = 0;
  for (const word of expected) {
    const count = left.get(normal(word)) ?? 0;
    if (count > 0) {
      found++;
      left.set(normal(word), count - 1);
    }
  }
  return found / expected.length;
}

/**
 * For each word the engine read, how far the extracted word of the same text nearest to it lies from the
 * engine's box: the largest gap of its four sides, as a fraction of the page's width (left, right) or height
 * (top, bottom). Infinity for a word not extracted.
 */
export function placementErrors(words: readonly OcrWord[], page: ExtractedPage): number[] {
  return words.map((word) => {
    const expected = { xMin: word.left * page.width, xMax: (word.left + word.width) * page.width, yMin: word.top * page.height, yMax: (word.top + word.height) * page.height };
    const gaps = page.words
      .filter((found) => normal(found.text) === normal(word.text.trim()))
      .map((found) =>
        Math.max(
          Math.abs(found.xMin - expected.xMin) / page.width,
          Math.abs(found.xMax - expected.xMax) / page.width,
          Math.abs(found.yMin - expected.yMin) / page.height,
          Math.abs(found.yMax - expected.yMax) / page.height,
        ),
      );
    return gaps.length ? Math.min(...gaps) : Infinity;
  });
}
