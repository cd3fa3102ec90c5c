/**
 * The few JSON Schema shapes the channel's messages are made of. Written in the subset that draft-07 (AsyncAPI's
 * own schema dialect) and draft 2020-12 (what zod writes, and what the tests compile) read alike.
 */

export type JsonSchema = Record<string, unknown>;

/** An object with exactly these fields: all required unless `optional` names them. */
export const closedObject = (properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  additionalProperties: false,
});

/** Every server message is `{type, data}` and nothing else (README, API notes: "Every server message is {type, data}"). */
export const serverEnvelope = (type: string, data: JsonSchema): JsonSchema =>
  closedObject({ type: { type: 'string', const: type }, data });

export const text = (description: string, more: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...more });
export const id = (description: string): JsonSchema => text(description, { format: 'uuid' });
export const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
export const textEnum = (description: string, values: readonly string[]): JsonSchema => text(description, { enum: [...values] });

/** `value` without the keys zod writes for a standalone schema (`$schema`), which an embedded one must not carry. */
export const embedded = (value: JsonSchema): JsonSchema => {
  const { $schema: _dialect, ...rest } = value;
  return rest;
};
