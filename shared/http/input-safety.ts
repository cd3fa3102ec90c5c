import type { FieldIssue } from '../domain/errors';

/**
 * Names that reach Object.prototype's machinery: `__proto__` vanishes (or swaps the prototype) when copied
 * into a plain object, and an own `constructor` makes the DynamoDB marshaller take a map for a class instance.
 * They are refused as field names wherever a client can name one (JSON keys at any depth, query parameters),
 * rather than special-cased downstream. (`prototype` is an ordinary key on plain objects and stays allowed.)
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor']);

/** Deeper input is refused before any schema reads it; no route takes more than a few levels. */
export const MAX_INPUT_DEPTH = 32;

// In a `u` regex a surrogate range matches only a surrogate that is not part of a pair.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Why a text cannot be stored or searched as given, or null. NUL ends strings in C code (SQLite FTS5's query
 * parser answers "unterminated string", Tesseract, headers); a lone surrogate has no UTF-8 form, so DynamoDB
 * and OpenSearch cannot store it. Other control characters are kept as given.
 */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode: it holds an unpaired surrogate (U+D800..U+DFFF)';
  return null;
}

/** One problem of unsafeInput: where (the path of keys and indexes to it) and why. */
export interface UnsafeInput {
  path: string[];
  reason: string;
}

/**
 * What in a client's input cannot be taken as given, wherever it sits: reserved field names, NUL and unpaired
 * surrogates in any name or string, and nesting deeper than MAX_INPUT_DEPTH.
 */
export function unsafeInput(input: unknown): UnsafeInput[] {
  const found: UnsafeInput[] = [];
  // Breadth first with an explicit queue: a hostile body cannot exhaust the stack.
  const queue: { value: unknown; path: string[] }[] = [{ value: input, path: [] }];
  for (let next = 0; next < queue.length; next++) {
    const { value, path } = queue[next]!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) found.push({ path, reason: problem });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      found.push({ path, reason: `nests deeper than ${MAX_INPUT_DEPTH} levels` });
      continue;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => queue.push({ value: item, path: [...path, String(index)] }));
      continue;
    }
    for (const [name, child] of Object.entries(value)) {
      const childPath = [...path, name];
      const problem = RESERVED_NAMES.has(name) ? 'is a reserved name and cannot be used as a field' : textProblem(name);
      if (problem) found.push({ path: childPath, reason: RESERVED_NAMES.has(name) ? problem : `as a field name ${problem}` });
      else queue.push({ value: child, path: childPath });
    }
  }
  return found;
}

/** unsafeInput as validation issues: dotted fields as in schema errors (`metadata.constructor`), `location` for the input itself. */
export const unsafeInputIssues = (input: unknown, location: string): FieldIssue[] =>
  unsafeInput(input).map(({ path, reason }) => ({ field: path.length ? path.join('.') : location, reason }));
