/** Tesseract's TSV output: one row per page, block, paragraph, line and word; words at level 5. */
import type { OcrWord } from '../../domain/ocr/page-texts';

const TSV_PAGE_LEVEL = '1';
const TSV_WORD_LEVEL = '5';

/** The confidence of one TSV row when it is a word with text and a confidence of 0 or more. */
export function rowConfidence(row: string): number | undefined {
  const columns = row.split('\t');
  if (columns[0] !== TSV_WORD_LEVEL || columns.length < 12) return undefined;
  const confidence = Number(columns[10]);
  const text = columns.slice(11).join('\t').trim();
  return text && Number.isFinite(confidence) && confidence >= 0 ? confidence : undefined;
}

/** A word in the pixels of the image tesseract read (left, top, width, height from the TSV's columns 7-10). */
export interface PixelWord {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The word of one TSV row, when it is a word with text and a confidence of 0 or more. */
export function rowWord(row: string): PixelWord | undefined {
  if (rowConfidence(row) === undefined) return undefined;
  const columns = row.split('\t');
  const [left, top, width, height] = columns.slice(6, 10).map(Number) as [number, number, number, number];
  return { text: columns.slice(11).join('\t').trim(), left, top, width, height };
}

/** The page's size in pixels, from its level-1 row (the whole image). */
export function rowPageSize(row: string): { width: number; height: number } | undefined {
  const columns = row.split('\t');
  if (columns[0] !== TSV_PAGE_LEVEL || columns.length < 10) return undefined;
  const width = Number(columns[8]);
  const height = Number(columns[9]);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** Words in pixels as fractions of the page; empty when the page's size is unknown. */
export function wordsOnPage(words: readonly PixelWord[], size: { width: number; height: number } | undefined): OcrWord[] {
  if (!size) return [];
  const fraction = (value: number, of: number): number => Math.min(1, Math.max(0, value / of));
  return words.map((word) => ({
    text: word.text,
    left: fraction(word.left, size.width),
    top: fraction(word.top, size.height),
    width: fraction(word.width, size.width),
    height: fraction(word.height, size.height),
  }));
}

/** Word confidences from a TSV file: its level-5 rows with a confidence of 0 or more and some text. */
export function wordConfidences(tsv: string): number[] {
  return tsv
    .split('\n')
    .slice(1)
    .map(rowConfidence)
    .filter((confidence): confidence is number => confidence !== undefined);
}

/** The words of a TSV file, as fractions of its page. */
export function tsvWords(tsv: string): OcrWord[] {
  const rows = tsv.split('\n').slice(1);
  const size = rows.map(rowPageSize).find((found) => found !== undefined);
  return wordsOnPage(rows.map(rowWord).filter((word): word is PixelWord => word !== undefined), size);
}
