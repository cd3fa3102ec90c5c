import { compileGlob, PatternError, type Glob } from './glob';

export { PatternError } from './glob';

/**
 * The globs of a source's `file_patterns`. A pattern without '/' matches a file's name in any directory
 * (`*.pdf`); one with '/' matches its path from the source's root (`scans/**\/*.tif`). `*` and `?` stay within
 * a path segment, `**` spans segments, `[abc]`/`[a-z]`/`[!x]` are classes, `{a,b}` alternatives (nested too),
 * `\` makes the next character literal. Matching is case-insensitive, as file extensions are written either
 * way, and takes linear time whatever the pattern (./glob.ts). No patterns: every file.
 */
export interface FilePatterns {
  matches(path: string): boolean;
}

/** The most patterns a source may have, and the longest one. */
export const MAX_FILE_PATTERNS = 50;
export const MAX_PATTERN_LENGTH = 200;
/** The most wildcards (`*`, `**`, `?`) in one pattern. */
export const MAX_PATTERN_WILDCARDS = 16;
/** How deep `{}` may nest, and how many alternatives a pattern's `{}` may offer in all. */
export const MAX_BRACE_DEPTH = 3;
export const MAX_BRACE_ALTERNATIVES = 32;

/**
 * Compiles a source's patterns. Only syntax is checked here: a pattern stored before a bound of
 * {@link patternProblem} existed still runs (in linear time, like any other).
 */
export function compileFilePatterns(patterns: readonly string[]): FilePatterns {
  if (patterns.length === 0) return { matches: () => true };
  const compiled = patterns.map((pattern) => {
    const glob = parse(pattern);
    return pattern.includes('/') ? (path: string) => glob.matches(path) : (path: string) => glob.matches(path.slice(path.lastIndexOf('/') + 1));
  });
  return { matches: (path) => compiled.some((test) => test(path)) };
}

/** Why a pattern is refused (its syntax, or a bound), or null when it is accepted. */
export function patternProblem(pattern: string): string | null {
  try {
    const { shape } = parse(pattern);
    if (shape.wildcards > MAX_PATTERN_WILDCARDS) return `has more than ${MAX_PATTERN_WILDCARDS} wildcards (*, ** or ?)`;
    if (shape.braceDepth > MAX_BRACE_DEPTH) return `nests {} more than ${MAX_BRACE_DEPTH} deep`;
    if (shape.alternatives > MAX_BRACE_ALTERNATIVES) return `has more than ${MAX_BRACE_ALTERNATIVES} {} alternatives`;
    return null;
  } catch (error) {
    return error instanceof PatternError ? error.message : 'is not a valid glob';
  }
}

function parse(pattern: string): Glob {
  if (pattern.trim() === '') throw new PatternError('is empty');
  if (pattern.length > MAX_PATTERN_LENGTH) throw new PatternError(`is longer than ${MAX_PATTERN_LENGTH} characters`);
  if (pattern.startsWith('/')) throw new PatternError('must be relative to the source root (no leading /)');
  return compileGlob(pattern);
}
