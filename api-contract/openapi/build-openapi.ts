import { readFileSync } from 'node:fs';
import type * as z from '../../shared/zod';
import { ERROR_STATUS } from '../../shared/domain/errors';
import { DEPRECATIONS, v2RouteKey, type DeprecationTable, type HttpGroup, type RouteKey } from '../../shared/manifest';
import type { RouteContract } from '../../shared/http/route';
import { ROUTE_CONTRACTS } from '../../functions/route-contracts';
import { codesOf, commonErrors, errorsByStatus } from './errors';
import { commonHeaders, HEADER_COMPONENTS, retryAfterHeader } from './headers';
import { API_DESCRIPTION, TAGS } from './info';
import { componentRef, componentSchemas, errorSchemaRef, requestSchema, type JsonSchema } from './json-schema';
import type { ErrorResponseDoc, OperationDoc, SuccessResponseDoc } from './operation-docs';
import { OPERATION_DOCS } from './operations';
import { webhookEventDocs } from './operations/webhooks';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Groups whose routes are not counted against a rate limit (see shared/http/pipeline.ts `limits`). */
const UNLIMITED_GROUPS: ReadonlySet<HttpGroup> = new Set(['health']);

const ACCESS_SENTENCES: Record<RouteContract['access'], string> = {
  public: 'Public: no token needed.',
  viewer: 'Any member of the workspace (viewer and up).',
  editor: 'Editors and admins of the workspace.',
  admin: 'Admins of the workspace.',
  operator: 'The operator of the deployment (the bootstrap admin) only.',
};

type Version = 'v1' | 'v2';

/** Path parameters or query parameters from an object schema, each with its own schema. */
function parameters(schema: z.ZodMiniType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = requestSchema(schema);
  const required = new Set((object['required'] as string[] | undefined) ?? []);
  return Object.entries((object['properties'] as Record<string, JsonSchema> | undefined) ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBody(contract: RouteContract, doc: OperationDoc): JsonSchema | undefined {
  if (contract.body) {
    if (doc.requestExample === undefined) throw new Error(`${contract.key}: a JSON body needs a requestExample`);
    return { required: true, content: { 'application/json': { schema: requestSchema(contract.body), example: doc.requestExample } } };
  }
  if (!contract.form) return undefined;
  const fields = requestSchema(contract.form.fields);
  const [fileField = 'file'] = contract.form.fileFields;
  const file = { type: 'string', format: 'binary', description: 'The file, with its name in the part\'s filename.' };
  const files = contract.form.maxFiles === 1 ? file : { type: 'array', items: file, minItems: 1, maxItems: contract.form.maxFiles };
  const properties = { [fileField]: files, ...(fields['properties'] as JsonSchema) };
  const required = [fileField, ...((fields['required'] as string[] | undefined) ?? [])];
  return {
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object', properties, required, additionalProperties: false } } },
  };
}

function successResponse(response: SuccessResponseDoc, headers: Record<string, unknown>): JsonSchema {
  const extraHeaders = Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
  );
  const out: JsonSchema = { description: response.description, headers: { ...headers, ...extraHeaders } };
  if (response.binary) {
    out['content'] = { [response.contentType ?? 'application/octet-stream']: { schema: { type: 'string', format: 'binary' } } };
  } else if (response.schema) {
    if (response.example === undefined) throw new Error(`a JSON response needs an example (${response.description})`);
    out['content'] = { [response.contentType ?? 'application/json']: { schema: componentRef(response.schema), example: response.example } };
  }
  return out;
}

/** The P error answer of one status: when each of its codes happens, the headers, the error body with those codes. */
function errorResponse(status: number, errors: readonly ErrorResponseDoc[], headers: Record<string, unknown>): JsonSchema {
  return {
    description: errors.map((error) => `\`${error.code}\`: ${error.when}.`).join('\n\n'),
    headers: { ...headers, ...(status === ERROR_STATUS.RATE_LIMITED || status === ERROR_STATUS.SERVICE_UNAVAILABLE ? retryAfterHeader() : {}) },
    content: {
      'application/json': {
        schema: { allOf: [{ $ref: errorSchemaRef }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codesOf(errors) } } } } }] },
      },
    },
  };
}

/**
 * A shared error answer's component name: its code in PascalCase, and for a role refusal the role it asks and
 * whether it needs a session (refuses API tokens).
 */
function sharedResponseName(errors: readonly ErrorResponseDoc[], contract: RouteContract): string {
  const [{ code } = { code: 'INTERNAL_ERROR' }] = errors;
  const name = code.toLowerCase().replace(/(^|_)(\w)/g, (_whole, _separator, letter: string) => letter.toUpperCase());
  if (code !== 'FORBIDDEN') return name;
  const write = contract.access === 'viewer' && !contract.key.startsWith('GET ') ? 'Write' : '';
  return `${name}${contract.access[0]?.toUpperCase()}${contract.access.slice(1)}${write}${contract.session ? 'Session' : ''}`;
}

/** Shared response components, by name; the same name must always mean the same answer. */
class SharedResponses {
  readonly components: Record<string, JsonSchema> = {};

  ref(name: string, response: JsonSchema): JsonSchema {
    const existing = this.components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(response)) throw new Error(`Two different answers would share the response component ${name}`);
    this.components[name] = response;
    return { $ref: `#/components/responses/${name}` };
  }
}

interface OperationInput {
  group: HttpGroup;
  operationId: string;
  contract: RouteContract;
  doc: OperationDoc;
  version: Version;
  deprecations: DeprecationTable;
  sharedResponses: SharedResponses;
}

function operation({ group, operationId, contract, doc, version, deprecations, sharedResponses }: OperationInput): JsonSchema {
  const key = (version === 'v1' ? contract.key : v2RouteKey(contract.key)) as RouteKey;
  const deprecated = key in deprecations;
  const rateLimited = !UNLIMITED_GROUPS.has(group);
  const headers = commonHeaders({ rateLimited, deprecated });
  const responses: JsonSchema = {};
  for (const [status, response] of Object.entries(doc.responses)) responses[status] = successResponse(response, headers);
  const own = new Set<number>((doc.errors ?? []).map((error) => ERROR_STATUS[error.code]));
  for (const [status, errors] of errorsByStatus([...commonErrors(contract, { rateLimited }), ...(doc.errors ?? [])])) {
    const response = errorResponse(status, errors, headers);
    // The answers every operation of a kind gives alike are shared components; an operation's own stay inline.
    const shared = rateLimited && !deprecated && !own.has(status);
    responses[String(status)] = shared ? sharedResponses.ref(sharedResponseName(errors, contract), response) : response;
  }
  const description = [
    version === 'v2' ? `The future version (v2) of \`${contract.key}\`: the same operation, under \`/api/v2/\`.` : undefined,
    doc.description,
    `**Who may call it:** ${ACCESS_SENTENCES[contract.access]}`,
    contract.rateLimit === 'upload' ? '**Rate limit:** also counts against the caller\'s upload limit.' : undefined,
  ].filter(Boolean);
  const requestBodyObject = requestBody(contract, doc);
  return {
    operationId: version === 'v1' ? operationId : `${operationId}V2`,
    tags: [group],
    summary: version === 'v1' ? doc.summary : `${doc.summary} (v2)`,
    description: description.join('\n\n'),
    'x-api-version': version,
    ...(deprecated ? { deprecated: true } : {}),
    security: contract.access === 'public' ? [] : [{ bearerAuth: [] }],
    parameters: [...parameters(contract.params, 'path'), ...parameters(contract.query, 'query')],
    ...(requestBodyObject ? { requestBody: requestBodyObject } : {}),
    responses,
  };
}

/** The header components the operations refer to (the deprecation headers only while a route is deprecated). */
const referencedHeaders = (paths: unknown) => {
  const text = JSON.stringify(paths);
  return Object.fromEntries(Object.entries(HEADER_COMPONENTS).filter(([name]) => text.includes(`"#/components/headers/${name}"`)));
};

/**
 * The service's OpenAPI 3.1 document: every route of the manifest, v1 and its v2 twin, from the route
 * contracts' request schemas and the operation docs' response shapes. Built at build time only
 * (api-contract/generate.ts); no Lambda imports it. `deprecations`: the manifest's table unless given.
 */
export function buildOpenApiDocument({ deprecations = DEPRECATIONS }: { deprecations?: DeprecationTable } = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const sharedResponses = new SharedResponses();
  for (const version of ['v1', 'v2'] as const) {
    for (const [group, contracts] of Object.entries(ROUTE_CONTRACTS) as [HttpGroup, Record<string, RouteContract>][]) {
      const docs = OPERATION_DOCS[group] as Record<string, OperationDoc>;
      for (const [operationId, contract] of Object.entries(contracts)) {
        const doc = docs[operationId];
        if (!doc) throw new Error(`${contract.key} (${operationId}) has no operation doc in api-contract/openapi/operations/${group}.ts`);
        const key = version === 'v1' ? contract.key : v2RouteKey(contract.key);
        const [method, path] = key.split(' ') as [string, string];
        (paths[path] ??= {})[method.toLowerCase()] = operation({ group, operationId, contract, doc, version, deprecations, sharedResponses });
      }
    }
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'docservice API',
      version: packageJson.version,
      summary: 'Documents with OCR, search, labels, sources, users, notifications and webhooks (SPEC profile P).',
      description: API_DESCRIPTION,
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/', description: 'This deployment (the same origin as this document)' }],
    tags: TAGS,
    security: [{ bearerAuth: [] }],
    paths,
    webhooks: webhookEventDocs(componentRef),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A token from `POST /api/auth/login` (or the OIDC callback), sent as `Authorization: Bearer <token>`.',
        },
      },
      responses: sharedResponses.components,
      headers: referencedHeaders({ paths, responses: sharedResponses.components }),
      schemas: componentSchemas(),
    },
  };
}
