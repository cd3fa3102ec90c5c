import type { RegexEngine } from './ports';
import type { RuleMatch } from './rule';

/** Words: runs of letters, digits and marks (so punctuation and spaces separate them, in any script). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

const wordsOf = (text: string): string[] => text.match(WORD) ?? [];
const fold = (text: string, caseSensitive: boolean) => (caseSensitive ? text : text.toLocaleLowerCase('und'));

/**
 * The edits a fuzzy word may be away from the pattern's word: none up to 3 characters (short words would match
 * too much), one up to 7, two beyond, as Paperless-ngx's fuzzy matching tolerates small typos and OCR misreads.
 */
export const fuzzyDistance = (word: string): number => (word.length <= 3 ? 0 : word.length <= 7 ? 1 : 2);

/**
 * Whether the text matches the rule's pattern:
 * - `any`: one of the pattern's words is a word of the text;
 * - `all`: every word of the pattern is a word of the text;
 * - `exact`: the pattern is in the text as written, runs of whitespace counting as one space;
 * - `regex`: the expression matches somewhere in the text (RE2, linear time);
 * - `fuzzy`: every word of the pattern is within {@link fuzzyDistance} edits of a word of the text.
 * Without `case_sensitive`, case is ignored. A pattern with no words matches nothing.
 */
export async function matches(match: RuleMatch, text: string, regex: RegexEngine): Promise<boolean> {
  if (match.algorithm === 'regex') return regex.test(match.pattern, text, match.case_sensitive);
  const pattern = fold(match.pattern, match.case_sensitive);
  const body = fold(text, match.case_sensitive);
  if (match.algorithm === 'exact') {
    const phrase = pattern.trim().replace(/\s+/g, ' ');
    return phrase.length > 0 && body.replace(/\s+/g, ' ').includes(phrase);
  }
  const wanted = wordsOf(pattern);
  if (!wanted.length) return false;
  const words = new Set(wordsOf(body));
  if (match.algorithm === 'any') return wanted.some((word) => words.has(word));
  if (match.algorithm === 'all') return wanted.every((word) => words.has(word));
  const candidates = [...words];
  return wanted.every((word) => words.has(word) || candidates.some((candidate) => withinEdits(word, candidate, fuzzyDistance(word))));
}

/** Whether a and b are at most `limit` insertions, deletions or substitutions apart (Levenshtein, banded). */
export function withinEdits(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  if (limit === 0) return a === b;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return false;
    previous = current;
  }
  return previous[b.length]! <= limit;
}
