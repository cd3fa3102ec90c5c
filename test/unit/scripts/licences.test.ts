import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPermissive, LICENCE_EXCEPTIONS, productionPackages } from '../../../scripts/licences';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('isPermissive', () => {
  it.each(['MIT', 'Apache-2.0', 'BSD-3-Clause', '(MIT OR WTFPL)', '(BSD-2-Clause OR MIT OR Apache-2.0)', 'Apache-2.0 WITH LLVM-exception'])(
    'allows %s',
    (expression) => {
      expect(isPermissive(expression)).toBe(true);
    },
  );

  it.each(['AGPL-3.0-or-later', 'GPL-2.0', '(MIT AND GPL-3.0)', 'SEE LICENSE IN LICENSE.txt', 'UNLICENSED', 'MIT junk'])('refuses %s', (expression) => {
    expect(isPermissive(expression)).toBe(false);
  });

  it('allows a choice when one side is permissive', () => {
    expect(isPermissive('(GPL-3.0 OR MIT)')).toBe(true);
  });
});

describe('the production dependencies', () => {
  const packages = productionPackages(ROOT);

  it('include what npm start runs', () => {
    expect(packages.map((entry) => entry.name)).toEqual(expect.arrayContaining(['zod', 'jose', '@20minutes/s3rver', 'better-sqlite3']));
  });

  it('exclude the dev-only tools', () => {
    expect(packages.map((entry) => entry.name)).not.toContain('vitest');
  });

  it('each carry a permissive licence, or an exception with its reason', () => {
    const refused = packages
      .filter((entry) => !(entry.licence && isPermissive(entry.licence)) && !(entry.name in LICENCE_EXCEPTIONS))
      .map((entry) => `${entry.path}@${entry.version}: ${entry.licence ?? 'no licence declared'}`);

    expect(refused).toEqual([]);
  });

  it('still need every exception listed', () => {
    const needed = new Set(packages.filter((entry) => !(entry.licence && isPermissive(entry.licence))).map((entry) => entry.name));

    expect(Object.keys(LICENCE_EXCEPTIONS).filter((name) => !needed.has(name))).toEqual([]);
  });
});

describe("the web console's production dependencies (web/package-lock.json: what its bundle ships to browsers)", () => {
  const packages = productionPackages(resolve(ROOT, 'web'));

  it('include Preact and each carry a permissive licence', () => {
    const refused = packages.filter((entry) => !(entry.licence && isPermissive(entry.licence))).map((entry) => `${entry.path}: ${entry.licence}`);

    expect(packages.map((entry) => entry.name)).toContain('preact');
    expect(refused).toEqual([]);
  });
});
