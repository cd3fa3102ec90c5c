import fc from 'fast-check';

/** Glob syntax, and the few literal characters the generated patterns are matched against. */
const GLOB_CHARACTERS = ['*', '?', '[', ']', '!', '-', '{', ',', '}', '\\', '/', 'a', 'b', '.'];

/**
 * A `file_patterns` entry: a random run of glob syntax (mostly malformed or over a bound), the nested wildcards
 * of the security review at any depth and of any kind, or wildcards in nested braces.
 */
export function globPattern(): fc.Arbitrary<string> {
  const wildcard = fc.constantFrom('*', '?', '**', '**/', '[!b]', '\\*');
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(fc.constantFrom(...GLOB_CHARACTERS), { minLength: 1, maxLength: 40 }).map((chars) => chars.join('')) },
    { weight: 2, arbitrary: fc.array(wildcard, { minLength: 1, maxLength: 20 }).map((wildcards) => `${wildcards.map((w) => `${w}a`).join('')}b`) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 5 }), wildcard).map(([depth, w]) => `${`{${w}a,`.repeat(depth)}${w}b${'}'.repeat(depth)}`) },
  );
}
