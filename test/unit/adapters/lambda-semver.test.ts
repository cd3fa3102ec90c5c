import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { gte } from '../../../shared/adapters/aws/lambda-semver';

/** The package the stand-in replaces, as the X-Ray SDK brings it (it ships no types). */
const semver = createRequire(import.meta.url)('semver') as { gte(version: string, minimum: string): boolean };

/** Versions as the X-Ray SDK and cls-hooked compare them, and the prerelease orderings of the semver spec. */
const VERSIONS = [
  '0.0.0',
  '1.0.0-alpha',
  '1.0.0-alpha.1',
  '1.0.0-alpha.beta',
  '1.0.0-beta',
  '1.0.0-beta.2',
  '1.0.0-beta.11',
  '1.0.0-rc.1',
  '1.0.0',
  '2.1692.0',
  '8.0.0',
  '8.0.1',
  '8.10.0',
  '20.20.2',
  'v22.11.0',
  '22.11.0+build.5',
];

describe('the semver stand-in of the Lambda bundles', () => {
  it('orders every pair of versions as the semver package does', () => {
    // Arrange
    const pairs = VERSIONS.flatMap((a) => VERSIONS.map((b) => [a, b] as const));

    // Act
    const differences = pairs.filter(([a, b]) => gte(a, b) !== semver.gte(a, b));

    // Assert
    expect(differences).toEqual([]);
  });

  it('rejects a version that is not one with a TypeError, as the package does', () => {
    // Arrange
    const invalid = '8.0';

    // Act
    const outcome = () => gte(invalid, '8.0.0');

    // Assert
    expect(outcome).toThrow(TypeError);
  });
});
