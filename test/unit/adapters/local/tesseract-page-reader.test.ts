import { describe, expect, it } from 'vitest';
import { needsOrientationPass, ORIENTATION_BELOW_CONFIDENCE } from '../../../../shared/adapters/local/tesseract-page-reader';
import { wordConfidences } from '../../../../shared/adapters/local/tesseract-tsv';

describe('needsOrientationPass', () => {
  it('asks for orientation detection when the words were read with little confidence, as an upside-down page reads', () => {
    expect(needsOrientationPass([35, 20, 41, 12])).toBe(true);
  });

  it('does not ask for it when the words were read with confidence', () => {
    expect(needsOrientationPass([96, 91, 88, 97])).toBe(false);
  });

  it('does not ask for it when no word was read, as on a blank page', () => {
    expect(needsOrientationPass([])).toBe(false);
  });

  it('takes the mean over the words: a mean at the threshold is confident enough', () => {
    expect(needsOrientationPass([ORIENTATION_BELOW_CONFIDENCE - 10, ORIENTATION_BELOW_CONFIDENCE + 10])).toBe(false);
  });
});

describe('wordConfidences', () => {
  it('keeps the confidences of word rows with text, leaving out layout rows and empty words', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t10\t40\t12\t96.5\tInvoice',
      '5\t1\t1\t1\t1\t2\t60\t10\t40\t12\t91\t4711',
      '5\t1\t1\t1\t1\t3\t110\t10\t40\t12\t95\t ',
    ].join('\n');

    expect(wordConfidences(tsv)).toEqual([96.5, 91]);
  });
});
