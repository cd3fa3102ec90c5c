import { RE2JS } from 're2js';

/** Compiled patterns kept, by pattern and case: every new document is read against every rule. */
const CACHE_SIZE = 200;

/** Rules' regular expressions on RE2JS, a pure JavaScript port of RE2: matching time is linear in the text. */
export class Re2RegexEngine {
  private readonly compiled = new Map<string, RE2JS>();

  check(pattern: string): string | null {
    try {
      RE2JS.compile(pattern);
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : 'is not a valid regular expression';
    }
  }

  test(pattern: string, text: string, caseSensitive: boolean): boolean {
    const compiled = this.compile(pattern, caseSensitive);
    return compiled !== null && compiled.matcher(text).find();
  }

  private compile(pattern: string, caseSensitive: boolean): RE2JS | null {
    const key = `${caseSensitive ? 's' : 'i'}${pattern}`;
    const known = this.compiled.get(key);
    if (known) return known;
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    } catch {
      return null;
    }
    if (this.compiled.size >= CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, compiled);
    return compiled;
  }
}
