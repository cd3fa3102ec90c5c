import { describe, expect, it } from 'vitest';
import { compileGlob, PatternError } from '../../../../shared/domain/sources/glob';

/** The glob engine itself; the pattern syntax as users meet it is tested in test/unit/domain/sources/file-patterns.test.ts. */
describe('compileGlob', () => {
  it('counts each wildcard once, escaped and class members not at all', () => {
    // Act
    const { shape } = compileGlob('**/a*b?c/\\*[*?]');

    // Assert
    expect(shape.wildcards).toBe(3);
  });

  it('measures how deep braces nest and how many alternatives they hold together', () => {
    // Act
    const { shape } = compileGlob('{a,{b,c,d}}/{e,f}');

    // Assert
    expect(shape).toMatchObject({ braceDepth: 2, alternatives: 7 });
  });

  it('matches the whole text only, never a part of it', () => {
    // Arrange
    const glob = compileGlob('scan*.pdf');

    // Act
    const results = ['scan1.pdf', 'old/scan1.pdf', 'scan1.pdf.bak'].map((text) => glob.matches(text));

    // Assert
    expect(results).toEqual([true, false, false]);
  });

  it('refuses a class of nothing but its negation with a PatternError saying so', () => {
    // Act
    const compile = () => compileGlob('scan[!].pdf');

    // Assert
    expect(compile).toThrow(PatternError);
    expect(compile).toThrow('has an empty [] class');
  });
});
