/** Tesseract's TSV output: one row per page, block, paragraph, line and word; words at level 5. */

const TSV_WORD_LEVEL = '5';

/** The confidence of one TSV row when it is a word with text and a confidence of 0 or more. */
export function rowConfidence(row: string): number | undefined {
  const columns = row.split('\t');
  if (columns[0] !== TSV_WORD_LEVEL || columns.length < 12) return undefined;
  const confidence = Number(columns[10]);
  const text = columns.slice(11).join('\t').trim();
  return text && Number.isFinite(confidence) && confidence >= 0 ? confidence : undefined;
}

/** Word confidences from a TSV file: its level-5 rows with a confidence of 0 or more and some text. */
export function wordConfidences(tsv: string): number[] {
  return tsv
    .split('\n')
    .slice(1)
    .map(rowConfidence)
    .filter((confidence): confidence is number => confidence !== undefined);
}
