import { Validator } from '@seriousme/openapi-schema-validator';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../../api-contract/openapi/build-openapi';
import { HTTP_ROUTES, PUBLIC_ROUTE_KEYS, v1RouteKey, type HttpGroup, type RouteKey } from '../../../../shared/manifest';

type JsonObject = Record<string, unknown>;
type Operation = JsonObject & { operationId: string; tags: string[]; responses: Record<string, JsonObject>; requestBody?: JsonObject };

const document = buildOpenApiDocument() as JsonObject & { paths: Record<string, Record<string, Operation>>; components: JsonObject };
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);

/**
 * Spectral rules of `spectral:oas` turned off, each with its reason. Keep it short: every other rule of the
 * recommended set holds.
 */
const RULES_OFF: Record<string, string> = {
  'info-contact': 'every deployment serves the document and its operator is the contact; the project has no address to name for all of them',
};

describe('the OpenAPI document', () => {
  it('lists exactly the routes of the manifest, v1 and v2', () => {
    const manifest = (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) => [...HTTP_ROUTES[group]]);

    expect(operations.map((o) => o.key).sort()).toEqual([...manifest].sort());
  });

  it('tags each operation with the group that serves it', () => {
    const groupOf = new Map((Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) => HTTP_ROUTES[group].map((key) => [key as string, group])));

    for (const { key, operation } of operations) expect(operation.tags, key).toEqual([groupOf.get(key)]);
  });

  it('gives every operation a unique operation id', () => {
    const ids = operations.map((o) => o.operation.operationId);

    expect(new Set(ids).size).toBe(ids.length);
  });

  it('asks a bearer token of exactly the routes that are not public', () => {
    for (const { key, operation } of operations) {
      const isPublic = PUBLIC_ROUTE_KEYS.has(v1RouteKey(key));
      expect(operation['security'], key).toEqual(isPublic ? [] : [{ bearerAuth: [] }]);
    }
  });

  it('documents a success status and a 500 for every operation', () => {
    for (const { key, operation } of operations) {
      const statuses = Object.keys(operation.responses).map(Number);
      expect(statuses.some((status) => status < 400), key).toBe(true);
      expect(statuses, key).toContain(500);
    }
  });

  it('passes the OpenAPI 3.1 schema validator', async () => {
    const result = await new Validator().validate(structuredClone(document));

    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("passes Spectral's recommended OpenAPI ruleset without a warning", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']], rules: Object.fromEntries(Object.keys(RULES_OFF).map((rule) => [rule, 'off'])) });

    const results = await spectral.run(new Document(JSON.stringify(document), Json, 'openapi.json'));

    expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  }, 120_000);

  it('gives examples that satisfy their own schemas, for every request and response', () => {
    // Arrange: the document's schemas, compiled as a validator would compile them.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: 'openapi.json' });
    const failures: string[] = [];
    const check = (where: string, media: JsonObject | undefined) => {
      if (!media || media['example'] === undefined) return;
      const validate = ajv.compile({ $ref: `openapi.json#${where}` });
      if (!validate(media['example'])) failures.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    const pointer = (...segments: string[]) => segments.map((s) => `/${s.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

    // Act
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const body = (operation.requestBody?.['content'] as Record<string, JsonObject> | undefined)?.['application/json'];
        check(pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'), body);
        for (const [status, response] of Object.entries(operation.responses)) {
          const json = (response['content'] as Record<string, JsonObject> | undefined)?.['application/json'];
          check(pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema'), json);
        }
      }
    }

    // Assert
    expect(failures).toEqual([]);
  });

  it('gives an example for every JSON request body and JSON success answer', () => {
    const missing: string[] = [];
    for (const { key, operation } of operations) {
      const body = (operation.requestBody?.['content'] as Record<string, JsonObject> | undefined)?.['application/json'];
      if (body && body['example'] === undefined) missing.push(`${key} request`);
      for (const [status, response] of Object.entries(operation.responses)) {
        const json = (response['content'] as Record<string, JsonObject> | undefined)?.['application/json'];
        if (Number(status) < 400 && json && json['example'] === undefined) missing.push(`${key} ${status}`);
      }
    }

    expect(missing).toEqual([]);
  });

  it('marks a deprecated route and names its deprecation headers', () => {
    // Arrange
    const key: RouteKey = 'GET /api/labels';

    // Act
    const withDeprecation = buildOpenApiDocument({ deprecations: { [key]: { since: '2026-01-01', sunset: '2026-12-31' } } }) as typeof document;

    // Assert
    const listLabels = withDeprecation.paths['/api/labels']?.['get'];
    expect(listLabels?.['deprecated']).toBe(true);
    expect(Object.keys(listLabels?.responses['200']?.['headers'] as JsonObject)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
    expect(withDeprecation.paths['/api/v2/labels']?.['get']?.['deprecated']).toBeUndefined();
  });

  it('describes every response shape', () => {
    const schemas = document.components['schemas'] as Record<string, JsonObject>;

    expect(Object.entries(schemas).filter(([, schema]) => !schema['description']).map(([name]) => name)).toEqual([]);
  });

  it('marks the v2 operations as the future version', () => {
    const v2 = operations.filter(({ key }) => key.includes(' /api/v2/'));

    expect(v2.length).toBe(operations.length / 2);
    for (const { operation } of v2) expect(operation['x-api-version']).toBe('v2');
  });
});
