import { describe, expect, it } from 'vitest';
import { lazyRe2RegexEngine } from '../../../../shared/adapters/re2/lazy-re2-regex-engine';
import { matches, withinEdits } from '../../../../shared/domain/rules/match';
import type { MatchAlgorithm, RuleMatch } from '../../../../shared/domain/rules/rule';

const regex = lazyRe2RegexEngine();
const rule = (algorithm: MatchAlgorithm, pattern: string, caseSensitive = false): RuleMatch => ({ field: 'content', algorithm, pattern, case_sensitive: caseSensitive });

describe('matching a rule', () => {
  it('any matches when one word of the pattern is a word of the text', async () => {
    expect(await matches(rule('any', 'invoice receipt'), 'Your receipt, thank you', regex)).toBe(true);
  });

  it('any does not match a word that is only part of a text word', async () => {
    expect(await matches(rule('any', 'voice'), 'Your invoice', regex)).toBe(false);
  });

  it('all matches only when every word of the pattern is in the text', async () => {
    const [both, one] = [await matches(rule('all', 'invoice paid'), 'Invoice 42 (paid)', regex), await matches(rule('all', 'invoice paid'), 'Invoice 42', regex)];

    expect({ both, one }).toEqual({ both: true, one: false });
  });

  it('exact matches the pattern as a phrase, whitespace runs counting as one space', async () => {
    const [phrase, scattered] = [
      await matches(rule('exact', 'total  due'), 'the total\ndue is 12', regex),
      await matches(rule('exact', 'total due'), 'due: the total', regex),
    ];

    expect({ phrase, scattered }).toEqual({ phrase: true, scattered: false });
  });

  it('regex matches an RE2 expression anywhere in the text', async () => {
    expect(await matches(rule('regex', 'INV-\\d{4}'), 'ref inv-2026 attached', regex)).toBe(true);
  });

  it('a catastrophic backtracking pattern is answered by the linear-time engine', async () => {
    expect(await matches(rule('regex', '(a+)+$'), `${'a'.repeat(30)}b`, regex)).toBe(false);
  });

  it('fuzzy matches a word one edit away and refuses one two edits away', async () => {
    const [close, far] = [await matches(rule('fuzzy', 'invoice'), 'an invoise here', regex), await matches(rule('fuzzy', 'invoice'), 'an imvoise here', regex)];

    expect({ close, far }).toEqual({ close: true, far: false });
  });

  it('fuzzy needs short words exactly', async () => {
    expect(await matches(rule('fuzzy', 'tax'), 'the tux', regex)).toBe(false);
  });

  it('case is ignored unless the rule is case sensitive', async () => {
    const [insensitive, sensitive] = [await matches(rule('any', 'ACME'), 'acme corp', regex), await matches(rule('any', 'ACME', true), 'acme corp', regex)];

    expect({ insensitive, sensitive }).toEqual({ insensitive: true, sensitive: false });
  });

  it('a case-sensitive regex respects case', async () => {
    expect(await matches(rule('regex', 'ACME', true), 'acme corp', regex)).toBe(false);
  });

  it('a pattern without words matches nothing', async () => {
    expect(await matches(rule('any', '  -- '), 'anything -- here', regex)).toBe(false);
  });
});

describe('edit distance', () => {
  it('counts insertions, deletions and substitutions within the limit', () => {
    expect([withinEdits('kitten', 'sitting', 3), withinEdits('kitten', 'sitting', 2)]).toEqual([true, false]);
  });
});

describe('the regex engine', () => {
  it('says why an invalid pattern is refused', async () => {
    expect(await regex.check('(unclosed')).toMatch(/missing|paren/i);
  });
});
