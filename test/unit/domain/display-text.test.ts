import { describe, expect, it } from 'vitest';
import { displayTextProblem, withoutControls } from '../../../shared/domain/display-text';

describe('withoutControls', () => {
  it('keeps letters, marks and emoji of every script', () => {
    expect(withoutControls('Résumé — 履歴書 עברית 😀')).toBe('Résumé — 履歴書 עברית 😀');
  });

  it('removes C0, C1 and bidirectional formatting characters', () => {
    expect(withoutControls('a\u0009b\u0085c\u202ed\u2067e\u200ff')).toBe('abcdef');
  });

  it('replaces an unpaired surrogate and keeps a pair', () => {
    expect(withoutControls('\ud800x😀')).toBe('\ufffdx😀');
  });
});

describe('displayTextProblem', () => {
  it('accepts a name in any script', () => {
    expect(displayTextProblem('Rechnungen 2026 — עברית')).toBeNull();
  });

  it('names the problem of a name with a right-to-left override', () => {
    expect(displayTextProblem('invoice\u202efdp')).toBe('must not contain control or bidirectional formatting characters');
  });

  it('finds the problem however often it is asked', () => {
    expect([displayTextProblem('a\u0085'), displayTextProblem('b\u0085')]).toEqual([expect.any(String), expect.any(String)]);
  });
});
