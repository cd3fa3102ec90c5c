import { describe, expect, it } from 'vitest';
import {
  compileFilePatterns,
  MAX_BRACE_ALTERNATIVES,
  MAX_BRACE_DEPTH,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_WILDCARDS,
  patternProblem,
} from '../../../../shared/domain/sources/file-patterns';

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

  it('lets ** inside a pattern span directories', () => {
    expect(matches(['scans/**.tif'], 'scans/2024/03/page.tif')).toBe(true);
  });

  it('matches an alternative of nested braces', () => {
    expect(matches(['*.{pdf,t{if,iff}}'], 'x.tiff')).toBe(true);
    expect(matches(['*.{pdf,t{if,iff}}'], 'x.tif')).toBe(true);
    expect(matches(['*.{pdf,t{if,iff}}'], 'x.t')).toBe(false);
  });

  it('matches an empty alternative of braces as nothing', () => {
    expect(matches(['report{,-final}.pdf'], 'report.pdf')).toBe(true);
    expect(matches(['report{,-final}.pdf'], 'report-final.pdf')).toBe(true);
  });

  it('takes a comma or a closing brace outside braces literally', () => {
    expect(matches(['a,b}.pdf'], 'a,b}.pdf')).toBe(true);
  });

  it('takes a character after a backslash literally', () => {
    expect(matches(['\\*.pdf'], '*.pdf')).toBe(true);
    expect(matches(['\\*.pdf'], 'a.pdf')).toBe(false);
  });

  it('takes a ] right after the [ as a member of the class', () => {
    expect(matches(['[]a].txt'], '].txt')).toBe(true);
  });

  it('takes a - right after the negation of a class literally', () => {
    expect(matches(['[!-z].txt'], 'a.txt')).toBe(true);
    expect(matches(['[!-z].txt'], '-.txt')).toBe(false);
  });

  it('matches a range regardless of case', () => {
    expect(matches(['[A-C].txt'], 'b.txt')).toBe(true);
    expect(matches(['[a-c].txt'], 'B.txt')).toBe(true);
  });

  it('answers at once that nested wildcards do not match a name of forty a', () => {
    expect(matches(['*a*a*a*a*a*a*a*a*a*a*a*a*b'], `${'a'.repeat(40)}.pdf`)).toBe(false);
  });

  it('answers at once that the most wildcards a pattern may have do not match a name of ten thousand a', () => {
    const pattern = `${'*a'.repeat(MAX_PATTERN_WILDCARDS)}b`;

    expect(matches([pattern], `${'a'.repeat(10_000)}.pdf`)).toBe(false);
  });

  it('matches nested wildcards against a name of ten thousand characters that they fit', () => {
    expect(matches(['*a*a*a*a*a*a*a*a*a*a*a*a*b'], `${'a'.repeat(10_000)}b`)).toBe(true);
  });

  it('answers at once that nested braces of wildcards do not match a long path', () => {
    expect(matches(['**/{*a,{*a,*a*}a}*b'], `${'a/'.repeat(2000)}${'a'.repeat(5000)}.pdf`)).toBe(false);
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

  it('refuses a class range out of order', () => {
    expect(patternProblem('scan[9-0].png')).toMatch(/out of order/);
  });

  it('refuses more wildcards than the limit, and accepts as many as it', () => {
    expect(patternProblem(`${'*a'.repeat(MAX_PATTERN_WILDCARDS + 1)}b`)).toMatch(/more than \d+ wildcards/);
    expect(patternProblem(`${'*a'.repeat(MAX_PATTERN_WILDCARDS)}b`)).toBeNull();
  });

  it('counts ? and ** as wildcards too', () => {
    expect(patternProblem('?'.repeat(MAX_PATTERN_WILDCARDS + 1))).toMatch(/wildcards/);
    expect(patternProblem(`${'**/'.repeat(MAX_PATTERN_WILDCARDS + 1)}x`)).toMatch(/wildcards/);
  });

  it('does not count escaped wildcards or those in a class', () => {
    expect(patternProblem('\\*'.repeat(MAX_PATTERN_WILDCARDS + 1))).toBeNull();
    expect(patternProblem('[*?]'.repeat(MAX_PATTERN_WILDCARDS + 1))).toBeNull();
  });

  it('refuses braces nested deeper than the limit, and accepts them as deep as it', () => {
    const nested = (depth: number): string => (depth === 0 ? 'x' : `{a,${nested(depth - 1)}}`);

    expect(patternProblem(nested(MAX_BRACE_DEPTH + 1))).toMatch(/nests \{\} more than \d+ deep/);
    expect(patternProblem(nested(MAX_BRACE_DEPTH))).toBeNull();
  });

  it('refuses more brace alternatives in all than the limit, and accepts as many as it', () => {
    expect(patternProblem(`{${'a,'.repeat(MAX_BRACE_ALTERNATIVES)}a}`)).toMatch(/more than \d+ \{\} alternatives/);
    expect(patternProblem(`{${'a,'.repeat(MAX_BRACE_ALTERNATIVES - 1)}a}`)).toBeNull();
  });

  it('counts the alternatives of every brace of a pattern together', () => {
    expect(patternProblem('{a,b}'.repeat(MAX_BRACE_ALTERNATIVES / 2 + 1))).toMatch(/alternatives/);
  });

  it('accepts the nested wildcards of the security review: matching them is linear', () => {
    expect(patternProblem('*a*a*a*a*a*a*a*a*a*a*a*a*b')).toBeNull();
  });
});
