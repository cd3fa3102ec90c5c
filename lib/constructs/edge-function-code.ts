import { readFileSync } from 'node:fs';

/**
 * A CloudFront Function's code: a script of `lib/edge/` with each `__NAME__` placeholder replaced by its value's
 * JSON. A placeholder the script no longer has fails the synth, so a setting cannot be dropped unnoticed.
 */
export function edgeFunctionCode(source: URL, values: Record<string, unknown>): string {
  let code = readFileSync(source, 'utf8');
  for (const [placeholder, value] of Object.entries(values)) {
    if (!code.includes(placeholder)) throw new Error(`${source.pathname} lost its ${placeholder} placeholder`);
    code = code.replaceAll(placeholder, JSON.stringify(value));
  }
  return code;
}
