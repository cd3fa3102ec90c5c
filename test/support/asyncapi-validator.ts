import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildAsyncApiDocument } from '../../api-contract/asyncapi/build-asyncapi';

/**
 * Checks what /ws sends against the channel's AsyncAPI document: each server message is matched by its `type`
 * to the message the document describes and validated against its payload, so that an event, answer or error
 * the document does not describe fails the test that received it. The document is built in memory (the same
 * function api-contract/generate.ts writes docs/api/asyncapi.json with), so it cannot be stale.
 */

type JsonObject = Record<string, unknown>;
interface Operation {
  action: 'send' | 'receive';
  messages: { $ref: string }[];
  reply?: { messages: { $ref: string }[] };
}

const document = buildAsyncApiDocument() as JsonObject & {
  operations: Record<string, Operation>;
  components: { messages: Record<string, { payload: JsonObject }> };
};

/** The message key a channel reference (`#/channels/ws/messages/<key>`) points at. */
const keyOf = (ref: { $ref: string }) => ref.$ref.split('/').at(-1)!;

/** What a client receives: the messages of `receive` operations and the replies to its `send` operations. */
export const serverMessageKeys = (): string[] => [
  ...new Set(
    Object.values(document.operations).flatMap((operation) =>
      (operation.action === 'receive' ? operation.messages : (operation.reply?.messages ?? [])).map(keyOf),
    ),
  ),
];

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** Compiled once: a validator per server message type, keyed by the `type` its payload fixes. */
const validators = new Map<string, ValidateFunction>(
  serverMessageKeys().map((key) => {
    const payload = document.components.messages[key]!.payload;
    const type = ((payload['properties'] as Record<string, JsonObject>)['type']!['const']) as string;
    return [type, ajv.compile(payload)];
  }),
);

/** Why a message /ws sent breaks the AsyncAPI document, in one sentence; null when it keeps it. */
export function asyncApiViolation(message: unknown): string | null {
  const shown = JSON.stringify(message)?.slice(0, 500);
  const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
  const validate = typeof type === 'string' ? validators.get(type) : undefined;
  if (!validate) {
    return `/ws sent a message of type ${JSON.stringify(type)}, which the AsyncAPI document does not list among the server messages (${[...validators.keys()].join(', ')}): ${shown}`;
  }
  if (validate(message)) return null;
  return `/ws sent a "${String(type)}" message its AsyncAPI payload does not allow: ${ajv.errorsText(validate.errors, { dataVar: 'message', separator: '; ' })} — message: ${shown}`;
}

/** Throws, naming the first message that breaks the document, if any does. */
export function assertInAsyncApi(messages: readonly unknown[]): void {
  for (const message of messages) {
    const violation = asyncApiViolation(message);
    if (violation) throw new Error(violation);
  }
}
