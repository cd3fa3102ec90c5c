/** Measures of OCR quality, shared by the OCR contract suite and bench/ocr.ts. */

/** Runs of whitespace (form feeds and line breaks included) become one space; the ends are trimmed. */
export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Edit distance (insertions, deletions, substitutions, each 1) between two strings, by UTF-16 code unit. */
export function levenshtein(a: string, b: string): number {
  if (a.length < b.length) return levenshtein(b, a);
  // Two rows of the dynamic-programming table, over the shorter string: O(min(n, m)) memory.
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/**
 * Character error rate of `hypothesis` against `reference`: their edit distance over the reference's length,
 * both with whitespace normalised (line breaks and column layout are not errors). 0 is perfect; it can exceed 1.
 */
export function characterErrorRate(reference: string, hypothesis: string): number {
  const expected = normaliseWhitespace(reference);
  const actual = normaliseWhitespace(hypothesis);
  if (expected.length === 0) return actual.length === 0 ? 0 : 1;
  return levenshtein(expected, actual) / expected.length;
}

/** Whitespace-separated words. */
export function wordCount(text: string): number {
  const normalised = normaliseWhitespace(text);
  return normalised ? normalised.split(' ').length : 0;
}
