/**
 * The globs of a source's `file_patterns`. A pattern without '/' matches a file's name in any directory
 * (`*.pdf`); one with '/' matches its path from the source's root (`scans/**\/*.tif`). `*` and `?` stay within
 * a path segment, `**` spans segments, `[abc]`/`[a-z]`/`[!x]` are classes, `{a,b}` alternatives. Matching is
 * case-insensitive, as file extensions are written either way. No patterns: every file.
 */
export interface FilePatterns {
  matches(path: string): boolean;
}

/** The most patterns a source may have, and the longest one. */
export const MAX_FILE_PATTERNS = 50;
export const MAX_PATTERN_LENGTH = 200;

export class PatternError extends Error {}

export function compileFilePatterns(patterns: readonly string[]): FilePatterns {
  if (patterns.length === 0) return { matches: () => true };
  const compiled = patterns.map((pattern) => {
    const regex = globToRegExp(pattern);
    return pattern.includes('/') ? (path: string) => regex.test(path) : (path: string) => regex.test(path.slice(path.lastIndexOf('/') + 1));
  });
  return { matches: (path) => compiled.some((test) => test(path)) };
}

/** Why a pattern is refused, or null when it compiles. */
export function patternProblem(pattern: string): string | null {
  try {
    globToRegExp(pattern);
    return null;
  } catch (error) {
    return error instanceof PatternError ? error.message : 'is not a valid glob';
  }
}

function globToRegExp(pattern: string): RegExp {
  if (pattern.trim() === '') throw new PatternError('is empty');
  if (pattern.length > MAX_PATTERN_LENGTH) throw new PatternError(`is longer than ${MAX_PATTERN_LENGTH} characters`);
  if (pattern.startsWith('/')) throw new PatternError('must be relative to the source root (no leading /)');
  let source = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*') {
      if (pattern[i + 1] === '*') {
        i++;
        // `**/` matches zero or more whole directories; a trailing `**` anything below.
        if (pattern[i + 1] === '/') {
          i++;
          source += '(?:[^/]*/)*';
        } else source += '.*';
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) throw new PatternError('has a [ without its ]');
      let body = pattern.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      if (body === '') throw new PatternError('has an empty [] class');
      source += `[${negated ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) source += '|';
    else if (char === '\\') {
      const next = pattern[++i];
      if (next === undefined) throw new PatternError('ends with a lone \\');
      source += escape(next);
    } else source += escape(char);
  }
  if (braces > 0) throw new PatternError('has a { without its }');
  return new RegExp(`^${source}$`, 'iu');
}

const escape = (char: string) => char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
