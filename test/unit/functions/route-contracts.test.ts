import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTE_CONTRACTS } from '../../../functions/route-contracts';
import { API_VERSION_PREFIXES, HTTP_ROUTES, PUBLIC_ROUTE_KEYS, type HttpGroup } from '../../../shared/manifest';
import * as z from '../../../shared/zod';
import { httpEvent, lambdaTestContext } from '../../support/http-events';
import { probeHandlers } from '../../support/probe-handlers';

const GROUPS = Object.keys(HTTP_ROUTES) as HttpGroup[];

/** Every contract of every group, with its operation id. */
const CONTRACTS = GROUPS.flatMap((group) =>
  Object.entries(ROUTE_CONTRACTS[group]).map(([operationId, contract]) => ({ group, operationId, contract })),
);

/** The manifest's v1 keys of a group: the handlers serve those, and a v2 key on its v1 twin. */
const v1Keys = (group: HttpGroup): string[] => HTTP_ROUTES[group].filter((key) => !key.includes(` ${API_VERSION_PREFIXES.v2}`));

/** The path parameters a route key names: `PUT /api/labels/{id}` → `['id']`. */
const pathParameters = (key: string): string[] => [...key.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);

/** The field names of a params schema (an object, built on first use or not); null when it is no object. */
const fieldsOf = (schema: z.ZodMiniType): string[] | null => {
  const built = schema instanceof z.ZodMiniLazy ? schema._zod.innerType : schema;
  return built instanceof z.ZodMiniObject ? Object.keys(built.shape) : null;
};

describe('route contracts', () => {
  it('declare every v1 route key of the manifest in exactly one contract', () => {
    // Arrange
    const declared = CONTRACTS.map(({ contract }) => contract.key);

    // Act
    const times = GROUPS.flatMap(v1Keys).map((key) => ({ key, contracts: declared.filter((k) => k === key).length }));

    // Assert
    expect(times.filter(({ contracts }) => contracts !== 1)).toEqual([]);
  });

  it('declare only keys the manifest lists under the same group', () => {
    // Arrange
    const manifest = new Map(GROUPS.flatMap((group) => v1Keys(group).map((key) => [key, group] as const)));

    // Act
    const strays = CONTRACTS.filter(({ group, contract }) => manifest.get(contract.key) !== group).map(
      ({ group, operationId, contract }) => `${group}.${operationId}: ${contract.key} (manifest: ${manifest.get(contract.key) ?? 'none'})`,
    );

    // Assert
    expect(strays).toEqual([]);
  });

  it('list each group in the order of its routes in the manifest', () => {
    // Arrange, Act
    const orders = GROUPS.map((group) => ({ group, keys: Object.values(ROUTE_CONTRACTS[group]).map((contract) => contract.key) }));

    // Assert
    expect(orders).toEqual(GROUPS.map((group) => ({ group, keys: v1Keys(group) })));
  });

  it('give every operation an id no other group uses', () => {
    // Arrange
    const ids = CONTRACTS.map(({ operationId }) => operationId);

    // Act
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);

    // Assert
    expect(repeated).toEqual([]);
  });

  it('make a route public exactly when the manifest lists it among the public route keys', () => {
    // Arrange, Act
    const disagreements = CONTRACTS.filter(({ contract }) => (contract.access === 'public') !== PUBLIC_ROUTE_KEYS.has(contract.key)).map(
      ({ contract }) => `${contract.key}: access ${contract.access}, public in the manifest: ${PUBLIC_ROUTE_KEYS.has(contract.key)}`,
    );

    // Assert
    expect(disagreements).toEqual([]);
  });

  it("name in a params schema exactly the key's path parameters, and give every key with path parameters one", () => {
    // Arrange, Act
    const mismatches = CONTRACTS.flatMap(({ contract }) => {
      const inKey = pathParameters(contract.key).sort();
      const inSchema = contract.params ? fieldsOf(contract.params)?.sort() : [];
      return JSON.stringify(inSchema) === JSON.stringify(inKey) ? [] : [`${contract.key}: key ${inKey.join(',') || '-'}, params schema ${inSchema?.join(',') || '-'}`];
    });

    // Assert
    expect(mismatches).toEqual([]);
  });

  it('are served by their group\'s handler, which asks for a token exactly where the contract is not public', async () => {
    // Arrange: the handlers over a container whose token check refuses every token and records that it ran.
    const probe = probeHandlers();
    const { handlers } = probe;

    // Act
    const disagreements: string[] = [];
    for (const { group, contract } of CONTRACTS) {
      probe.reset();
      const response = await handlers[group](httpEvent(contract.key, { headers: { authorization: 'Bearer probe' } }), lambdaTestContext);
      // What the handler answers a key it does not serve.
      const [method, routePath] = contract.key.split(' ');
      if (response.body?.includes(`No endpoint ${method} ${routePath}`)) disagreements.push(`${contract.key}: not served by ${group}`);
      else if (probe.authenticated() !== (contract.access !== 'public')) disagreements.push(`${contract.key}: access ${contract.access}, token checked ${probe.authenticated()}`);
    }

    // Assert
    expect(disagreements).toEqual([]);
  });

  it('are gathered by a module that no function imports, as it pulls in every group\'s schemas', () => {
    // Arrange
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const sourceFiles = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) return sourceFiles(file);
        return file.endsWith('.ts') ? [file] : [];
      });
    const gatherer = path.join(root, 'functions', 'route-contracts.ts');

    // Act
    const importers = [...sourceFiles(path.join(root, 'functions')), ...sourceFiles(path.join(root, 'shared'))]
      .filter((file) => file !== gatherer && /from\s+'[^']*\/route-contracts'/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));

    // Assert
    expect(importers).toEqual([]);
  });
});

describe('request schemas under values that are not what they should be', () => {
  it('refuse a `url` that is no URL with a validation issue, never by throwing (a 500)', () => {
    // Arrange
    const withUrl = CONTRACTS.filter(({ contract }) => contract.body && fieldsOf(contract.body)?.includes('url'));

    // Act
    const outcomes = withUrl.flatMap(({ contract }) =>
      ['', 'not a url', 'http://', '::'].map((url) => {
        try {
          return { key: contract.key, url, success: contract.body!.safeParse({ url }).success };
        } catch (error) {
          return { key: contract.key, url, threw: (error as Error).message };
        }
      }),
    );

    // Assert
    expect(withUrl.map(({ contract }) => contract.key)).toEqual(expect.arrayContaining(['POST /api/sources', 'POST /api/webhooks', 'PUT /api/webhooks/{id}']));
    expect(outcomes.filter((outcome) => 'threw' in outcome || outcome.success)).toEqual([]);
  });
});
