/**
 * Which way a page's text runs, from where the engine saw its words: a page scanned sideways or upside down is
 * read by Tesseract (its layout analysis, or its orientation pass) with boxes in the frame of the page as it
 * lies, words in reading order. The searchable PDF turns such a page upright (`/Rotate`) and its words with it.
 */
import type { PlacedWord } from '../imaging/jobs';

/** Clockwise turn that shows the page's text upright. */
export type UprightTurn = 0 | 90 | 180 | 270;

/** At least this share of the neighbouring words must agree on a direction other than left to right. */
const MIN_AGREEMENT = 0.6;
/** Fewer neighbouring pairs than this tell nothing (a page of a word or two). */
const MIN_PAIRS = 4;

/**
 * The turn that makes the page's text run left to right: each pair of words read one after the other and close
 * together (a line's neighbours) votes for the direction from the first to the second; a turn is made only when
 * most agree on one other than left to right.
 */
export const uprightTurn = (words: readonly PlacedWord[]): UprightTurn => {
  const votes = { 0: 0, 90: 0, 180: 0, 270: 0 };
  let pairs = 0;
  for (let i = 1; i < words.length; i++) {
    const a = words[i - 1]!;
    const b = words[i]!;
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    // Neighbours on a line are within a few of their own thickness (the smaller side of a word's box).
    const reach = 6 * Math.max(Math.min(a.width, a.height), Math.min(b.width, b.height));
    if (Math.hypot(dx, dy) > reach) continue;
    pairs++;
    // Text running down the page was turned a quarter clockwise: a turn of 270 shows it upright.
    if (Math.abs(dx) >= Math.abs(dy)) votes[dx >= 0 ? 0 : 180]++;
    else votes[dy >= 0 ? 270 : 90]++;
  }
  if (pairs < MIN_PAIRS) return 0;
  const [turn, count] = (Object.entries(votes) as [string, number][]).reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  return Number(turn) !== 0 && count >= pairs * MIN_AGREEMENT ? (Number(turn) as UprightTurn) : 0;
};

/** A box of the page as it lies, as fractions of the page shown after a clockwise turn of `turn`. */
export const turnWord = (word: PlacedWord, turn: UprightTurn): PlacedWord => {
  const { left, top, width, height } = word;
  switch (turn) {
    case 90:
      return { text: word.text, left: 1 - (top + height), top: left, width: height, height: width };
    case 180:
      return { text: word.text, left: 1 - (left + width), top: 1 - (top + height), width, height };
    case 270:
      return { text: word.text, left: top, top: 1 - (left + width), width: height, height: width };
    default:
      return word;
  }
};
