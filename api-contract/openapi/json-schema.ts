import * as z from '../../shared/zod';
import { shapeDescriptions, shapes } from './shapes/registry';

export type JsonSchema = Record<string, unknown>;

const COMPONENT_URI = (id: string) => `#/components/schemas/${id}`;

/** zod's bounds for a plain `z.int()`, which say nothing a reader needs. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);
/** Formats zod also spells out as a regular expression; the format alone says it (validators check formats). */
const FORMATS_WITH_REDUNDANT_PATTERN = new Set(['uuid', 'date-time', 'date', 'email']);

/** Removes what zod writes that a document reader (or a client generator) does not need. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    if (key === 'pattern' && FORMATS_WITH_REDUNDANT_PATTERN.has((node as JsonSchema)['format'] as string)) continue;
    out[key] = tidy(value);
  }
  return out;
}

/**
 * A request schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), as a client must send it: the input side of
 * transforms and defaults. Checks that JSON Schema cannot say (refinements) are left to the service.
 */
export const requestSchema = (schema: z.ZodMiniType): JsonSchema =>
  tidy(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' })) as JsonSchema;

/** Every registered response shape as a component schema; shapes refer to one another by `$ref`. */
export const componentSchemas = (): Record<string, JsonSchema> => {
  const { schemas } = z.toJSONSchema(shapes, { uri: COMPONENT_URI, target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });
  const components = tidy(schemas) as Record<string, JsonSchema>;
  for (const [id, component] of Object.entries(components)) {
    const description = shapeDescriptions.get(id);
    if (description && component['description'] === undefined) components[id] = { description, ...component };
  }
  return components;
};

/** A reference to a registered response shape's component. */
export const componentRef = (schema: z.ZodMiniType): JsonSchema => {
  const meta = shapes.get(schema);
  if (!meta) throw new Error('A response schema must be a registered shape (api-contract/openapi/shapes)');
  return { $ref: COMPONENT_URI(meta.id) };
};

export const errorSchemaRef = COMPONENT_URI('Error');
