/**
 * The licences of the production dependencies: the packages of package-lock.json that are not dev-only, i.e.
 * what a Lambda bundles or `npm start` runs. The service is offered over a network under Apache-2.0, so each of
 * them must carry a permissive licence; `npm test` checks it (test/unit/scripts/licences.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Permissive licences, as SPDX identifiers. */
export const ALLOWED_LICENCES = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Unlicense',
  'WTFPL',
  'Python-2.0',
  'Zlib',
]);

/**
 * Packages whose licence the check cannot read or does not allow, each with the reason it is accepted. An entry
 * that is no longer needed fails the check too, so the list cannot outlive its reasons.
 */
export const LICENCE_EXCEPTIONS: Record<string, string> = {
  'humanize-number': 'MIT, stated in its Readme (its package.json declares no licence); a dependency of @20minutes/s3rver (through koa)',
  only: 'MIT, stated in its Readme (its package.json declares no licence); a dependency of @20minutes/s3rver (through koa)',
};

export interface ProductionPackage {
  /** Its path in the lock file, e.g. `node_modules/s3rver/node_modules/busboy`. */
  path: string;
  name: string;
  version: string;
  /** The SPDX expression it declares, or null when it declares none. */
  licence: string | null;
}

interface LockEntry {
  version?: string;
  license?: string;
  dev?: boolean;
  devOptional?: boolean;
}

/** What a package declares: the `license` field, else the old `licenses` array (joined with OR). */
function declaredLicence(root: string, path: string, entry: LockEntry): string | null {
  if (entry.license) return entry.license;
  try {
    const manifest = JSON.parse(readFileSync(join(root, path, 'package.json'), 'utf8')) as {
      license?: string;
      licenses?: { type?: string }[];
    };
    if (manifest.license) return manifest.license;
    const types = (manifest.licenses ?? []).map((licence) => licence.type).filter(Boolean);
    return types.length ? (types.length === 1 ? types[0]! : `(${types.join(' OR ')})`) : null;
  } catch {
    return null;
  }
}

/** Every production package of the lock file at `root`, with the licence it declares. */
export function productionPackages(root: string): ProductionPackage[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev && !entry.devOptional)
    .map(([path, entry]) => ({
      path,
      name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version ?? '',
      licence: declaredLicence(root, path, entry),
    }));
}

/**
 * Whether an SPDX expression lets us use the package under a permissive licence: `A OR B` needs one allowed
 * side, `A AND B` both, parentheses group; `WITH` exceptions and `+` are read as the licence they modify.
 */
export function isPermissive(expression: string): boolean {
  const tokens = expression.replace(/[()]/g, (paren) => ` ${paren} `).trim().split(/\s+/);
  let at = 0;
  const any = (): boolean => {
    let allowed = all();
    while (tokens[at] === 'OR') {
      at++;
      allowed = all() || allowed;
    }
    return allowed;
  };
  const all = (): boolean => {
    let allowed = one();
    while (tokens[at] === 'AND') {
      at++;
      allowed = one() && allowed;
    }
    return allowed;
  };
  const one = (): boolean => {
    const token = tokens[at++];
    if (token === '(') {
      const allowed = any();
      at++; // ')'
      return allowed;
    }
    if (tokens[at] === 'WITH') at += 2;
    return ALLOWED_LICENCES.has((token ?? '').replace(/\+$/, ''));
  };
  const allowed = any();
  return allowed && at === tokens.length;
}
