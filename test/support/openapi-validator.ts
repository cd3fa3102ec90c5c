import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks answers against the OpenAPI document (docs/api/openapi.json, the generated contract) by route and
 * status: the e2e client runs every answer it receives through it, so an undocumented status, a missing
 * required field or an extra field in a closed shape fails the test that received it.
 */

type JsonObject = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal segments first: `/api/users/profile` before `/api/users/{id}`. */
  parameterCount: number;
  responses: Record<string, JsonObject>;
}

const DOCUMENT_ID = 'openapi.json';
const document = JSON.parse(readFileSync(new URL('../../docs/api/openapi.json', import.meta.url), 'utf8')) as JsonObject;

/** Paths served beside the API, not by its operations (the contract itself, its UI). */
const OUTSIDE_THE_API = [/^\/api-docs\//, /^\/swagger-ui/, /^\/api\/openapi\.json$/];
/** What the transport answers before any operation sees a request: a body that stopped arriving, headers too large. */
const TRANSPORT_STATUSES = new Set([408, 431]);

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

const responseComponents = ((document['components'] as JsonObject)['responses'] ?? {}) as Record<string, JsonObject>;

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

const operations: Operation[] = Object.entries(document['paths'] as Record<string, JsonObject>)
  .flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
      parameterCount: (template.match(/\{/g) ?? []).length,
      responses: (operation as { responses: Record<string, JsonObject> }).responses,
    })),
  )
  .sort((a, b) => a.parameterCount - b.parameterCount);

const validators = new Map<string, ValidateFunction>();
const validatorAt = (pointer: string): ValidateFunction => {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
};

const errorBodyValidator = () => validatorAt('/components/schemas/Error');

/** The answer as the client saw it. */
export interface ObservedResponse {
  method: string;
  /** The request's path, with or without its query string. */
  path: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body, the text of a non-JSON body, or undefined for none. */
  body: unknown;
  /** Whether the body was read as bytes (a download, an image): its content is not checked. */
  binary?: boolean;
}

const describe = (response: ObservedResponse) => `${response.method} ${response.path} answered ${response.status}`;

function checkBody(validate: ValidateFunction, response: ObservedResponse): string[] {
  if (validate(response.body)) return [];
  return [`${describe(response)} with a body the contract does not allow: ${ajv.errorsText(validate.errors, { separator: '; ' })} — body: ${JSON.stringify(response.body).slice(0, 500)}`];
}

/** Why an answer breaks the contract, one sentence each; none when it keeps it. */
export function contractViolations(response: ObservedResponse): string[] {
  const path = response.path.split('?')[0] ?? '';
  if (OUTSIDE_THE_API.some((pattern) => pattern.test(path))) return [];
  const operation = operations.find((candidate) => candidate.method === response.method && candidate.pattern.test(path));
  if (!operation || TRANSPORT_STATUSES.has(response.status)) {
    // No operation: the fallback's P 404 (an unknown route) or a transport refusal, both with the error body.
    if (response.method === 'OPTIONS') return [];
    if (!operation && response.status !== 404 && !TRANSPORT_STATUSES.has(response.status)) {
      return [`${describe(response)}, but no operation of the contract serves ${response.method} ${path} (an unknown route is 404)`];
    }
    return checkBody(errorBodyValidator(), response);
  }
  const answer = operation.responses[String(response.status)];
  if (!answer) {
    return [`${describe(response)}: the contract's ${response.method} ${operation.template} documents ${Object.keys(operation.responses).join(', ')} only`];
  }
  // A shared answer (`#/components/responses/<name>`) is checked against the component.
  const shared = typeof answer['$ref'] === 'string' ? answer['$ref'].slice(1) : null;
  const documented = shared ? (responseComponents[shared.split('/').pop() ?? ''] ?? {}) : answer;
  const content = documented['content'] as Record<string, JsonObject> | undefined;
  if (!content) {
    return response.body === undefined || response.body === '' ? [] : [`${describe(response)} with a body, where the contract documents none`];
  }
  const [mediaType] = Object.keys(content);
  if (!mediaType?.includes('json') || response.binary) return [];
  if (!response.contentType?.includes('application/json')) return [`${describe(response)} as ${response.contentType ?? 'no content type'}, not JSON`];
  const at = shared ?? `/paths/${escapePointer(operation.template)}/${response.method.toLowerCase()}/responses/${response.status}`;
  const pointer = `${at}/content/${escapePointer(mediaType)}/schema`;
  return checkBody(validatorAt(pointer), response);
}

/** Throws when an answer breaks the contract, naming every way it does. */
export function assertKeepsContract(response: ObservedResponse): void {
  const violations = contractViolations(response);
  if (violations.length) throw new Error(`The answer breaks the API contract (docs/api/openapi.json):\n- ${violations.join('\n- ')}`);
}
