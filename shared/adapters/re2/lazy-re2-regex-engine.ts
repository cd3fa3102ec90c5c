import type { RegexEngine } from '../../domain/rules/ports';
import { onFirstUse } from '../first-use';

/**
 * The RegexEngine port on RE2JS, loaded on first use: every function's container has rules, few ever match a
 * regular expression, and RE2JS is a large module that would otherwise weigh on each one's cold start.
 */
export function lazyRe2RegexEngine(): RegexEngine {
  const engine = onFirstUse(async () => new (await import('./re2-regex-engine')).Re2RegexEngine());
  return {
    check: async (pattern) => (await engine()).check(pattern),
    test: async (pattern, text, caseSensitive) => (await engine()).test(pattern, text, caseSensitive),
  };
}
