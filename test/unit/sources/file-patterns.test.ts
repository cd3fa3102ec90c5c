import { describe, expect, it } from 'vitest';
import { compileFilePatterns, MAX_PATTERN_LENGTH, patternProblem } from '../../../shared/domain/sources/file-patterns';

const matches = (patterns: string[], path: string) => compileFilePatterns(patterns).matches(path);

describe('file patterns', () => {
  it('matches every file when there are no patterns', () => {
    expect(matches([], 'any/where/file.xyz')).toBe(true);
  });

  it('matches a pattern without a slash against the file name in any directory', () => {
    expect(matches(['*.pdf'], 'a/b/c/report.pdf')).toBe(true);
  });

  it('does not match a name pattern against the directories of the path', () => {
    expect(matches(['scans*'], 'scans/page.tif')).toBe(false);
  });

  it('matches a pattern with a slash against the whole path from the source root', () => {
    expect(matches(['scans/*.tif'], 'scans/page.tif')).toBe(true);
    expect(matches(['scans/*.tif'], 'old/scans/page.tif')).toBe(false);
  });

  it('keeps a single star within one path segment', () => {
    expect(matches(['scans/*.tif'], 'scans/2024/page.tif')).toBe(false);
  });

  it('lets **/ stand for zero directories', () => {
    expect(matches(['scans/**/*.tif'], 'scans/page.tif')).toBe(true);
  });

  it('lets **/ stand for several directories', () => {
    expect(matches(['scans/**/*.tif'], 'scans/2024/03/page.tif')).toBe(true);
  });

  it('lets a trailing ** match anything below a directory', () => {
    expect(matches(['archive/**'], 'archive/a/b/c.txt')).toBe(true);
    expect(matches(['archive/**'], 'other/a.txt')).toBe(false);
  });

  it('matches ? to exactly one character, never a slash', () => {
    expect(matches(['page?.png'], 'page1.png')).toBe(true);
    expect(matches(['page?.png'], 'page12.png')).toBe(false);
    expect(matches(['a?b/x'], 'a/b/x')).toBe(false);
  });

  it('matches a character class and a range', () => {
    expect(matches(['scan[0-9].png'], 'scan7.png')).toBe(true);
    expect(matches(['scan[abc].png'], 'scanb.png')).toBe(true);
    expect(matches(['scan[0-9].png'], 'scanx.png')).toBe(false);
  });

  it('negates a class with ! or ^', () => {
    expect(matches(['scan[!0-9].png'], 'scanx.png')).toBe(true);
    expect(matches(['scan[!0-9].png'], 'scan7.png')).toBe(false);
    expect(matches(['scan[^0-9].png'], 'scan7.png')).toBe(false);
  });

  it('never lets a negated class match a slash', () => {
    expect(matches(['a[!x]b'], 'a/b')).toBe(false);
  });

  it('matches any alternative of {a,b}', () => {
    expect(matches(['*.{pdf,tif}'], 'x.tif')).toBe(true);
    expect(matches(['*.{pdf,tif}'], 'x.pdf')).toBe(true);
    expect(matches(['*.{pdf,tif}'], 'x.png')).toBe(false);
  });

  it('matches regardless of case', () => {
    expect(matches(['*.pdf'], 'REPORT.PDF')).toBe(true);
    expect(matches(['Scans/*.TIF'], 'scans/page.tif')).toBe(true);
  });

  it('matches non-ASCII names, ? counting one character', () => {
    expect(matches(['Rechnung-*.pdf'], 'Büro/Rechnung-März.pdf')).toBe(true);
    expect(matches(['?.txt'], 'ü.txt')).toBe(true);
    expect(matches(['?.txt'], '😀.txt')).toBe(true);
  });

  it('matches regex metacharacters in a pattern literally', () => {
    expect(matches(['a+b (1).pdf'], 'a+b (1).pdf')).toBe(true);
    expect(matches(['a.pdf'], 'aXpdf')).toBe(false);
  });

  it('matches a file when any one of several patterns does', () => {
    expect(matches(['*.pdf', '*.png'], 'x.png')).toBe(true);
    expect(matches(['*.pdf', '*.png'], 'x.gif')).toBe(false);
  });
});

describe('patternProblem', () => {
  it('accepts a valid glob', () => {
    expect(patternProblem('scans/**/*.{tif,png}')).toBeNull();
  });

  it('refuses a [ without its ]', () => {
    expect(patternProblem('scan[0-9.png')).toMatch(/\[/);
  });

  it('refuses a { without its }', () => {
    expect(patternProblem('*.{pdf,tif')).toMatch(/\{/);
  });

  it('refuses a leading /', () => {
    expect(patternProblem('/scans/*.pdf')).toMatch(/leading \//);
  });

  it('refuses an empty pattern', () => {
    expect(patternProblem('')).toBe('is empty');
    expect(patternProblem('   ')).toBe('is empty');
  });

  it('refuses a pattern longer than the limit, and accepts one at it', () => {
    expect(patternProblem('a'.repeat(MAX_PATTERN_LENGTH + 1))).toMatch(/longer/);
    expect(patternProblem('a'.repeat(MAX_PATTERN_LENGTH))).toBeNull();
  });

  it('refuses a pattern ending with a lone backslash', () => {
    expect(patternProblem('abc\\')).toMatch(/\\/);
  });
});
