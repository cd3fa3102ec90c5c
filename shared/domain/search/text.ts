/**
 * Highlight markers the engines put around matches. They are private-use characters that indexing strips from
 * every text, so a marker in a snippet is always one of ours: the snippet is HTML-escaped first and only then
 * are the markers turned into <mark> tags, so no document text can open or close a tag.
 */
export const MARK_OPEN = '\uE000';
export const MARK_CLOSE = '\uE001';

const MARKERS = /[\uE000\uE001]/gu;

/** The text without highlight markers, as the index stores it. */
export const stripMarkers = (text: string): string => text.replace(MARKERS, '');

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);

/** A snippet with markers as HTML: everything escaped, matches wrapped in <mark></mark>. */
export const markedToHtml = (marked: string): string =>
  escapeHtml(marked).replaceAll(MARK_OPEN, '<mark>').replaceAll(MARK_CLOSE, '</mark>');

/** Typos allowed in a fuzzy word: none below 4 letters, 1 from 4, 2 from 8 (what OpenSearch calls AUTO:4,8). */
export const maxEdits = (length: number): number => (length >= 8 ? 2 : length >= 4 ? 1 : 0);

/**
 * Edit distance with adjacent transpositions (optimal string alignment): "recieve" is one edit from "receive",
 * as OpenSearch's fuzzy queries count it.
 */
export function fuzzyDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = value;
    }
  }
  return d[rows * cols - 1]!;
}

/** fuzzyDistance(a, b) <= edits, with cheap rejections first (a query checks thousands of words). */
export function withinEdits(a: string, b: string, edits: number): boolean {
  if (Math.abs(a.length - b.length) > edits) return false;
  let differing = 0;
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) if (a[i] !== b[i]) differing++;
  // Equal lengths with few positional differences are that many substitutions: no need for the full table.
  if (a.length === b.length && differing <= edits) return true;
  return fuzzyDistance(a, b) <= edits;
}
