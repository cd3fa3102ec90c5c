/**
 * Stands in for `semver` in the Lambda bundles (an esbuild alias: see `LAMBDA_ESBUILD_ALIASES` in
 * lib/constructs/app-function.ts). The X-Ray SDK and its cls-hooked only ask `semver.gte(version, minimum)`
 * (of Node's version, and of the v2 SDK's, which no function loads); the two copies of the package they bring
 * weigh about 28 KB in every function. Everything run outside Lambda keeps the package.
 */

/** major.minor.patch, an optional prerelease and build, an optional leading `v` (as semver's loose parse takes). */
const VERSION = /^\s*v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\s*$/u;

interface Parsed {
  core: [number, number, number];
  prerelease: string[];
}

const parse = (version: string): Parsed => {
  const match = VERSION.exec(String(version));
  if (!match) throw new TypeError(`Invalid Version: ${version}`);
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] ? match[4].split('.') : [] };
};

/** Compares prerelease identifiers as semver does: numbers numerically and below words; more fields are greater. */
const comparePrerelease = (a: string[], b: string[]): number => {
  if (a.length === 0 || b.length === 0) return b.length - a.length; // a release is above its prereleases
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    const [xNumber, yNumber] = [/^\d+$/u.test(x), /^\d+$/u.test(y)];
    if (xNumber && yNumber) return Number(x) - Number(y);
    if (xNumber !== yNumber) return xNumber ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
};

const compare = (a: string, b: string): number => {
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return x.core[i]! - y.core[i]!;
  return comparePrerelease(x.prerelease, y.prerelease);
};

/** True when `version` is at or above `minimum` (semver precedence); throws a TypeError on an invalid version. */
export const gte = (version: string, minimum: string): boolean => compare(version, minimum) >= 0;
