import { readFileSync } from 'node:fs';
import specs from '@asyncapi/specs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildAsyncApiDocument } from '../../../../api-contract/asyncapi/build-asyncapi';
import { CHANNEL_ERROR_MESSAGES, CLIENT_MESSAGE_TYPES, clientMessage } from '../../../../functions/realtime/schemas';
import { MESSAGE_BUDGET } from '../../../../shared/domain/connections/message-budget';
import { MAX_CONNECTIONS_PER_USER, WS_CLOSE_CODES } from '../../../../shared/domain/connections/ports';
import { SESSION_END_MESSAGES } from '../../../../shared/domain/connections/sessions';
import { asyncApiViolation, serverMessageKeys } from '../../../support/asyncapi-validator';

type JsonObject = Record<string, unknown>;
interface Message {
  payload: JsonObject;
  examples: { name: string; payload: JsonObject }[];
}
interface Document {
  asyncapi: string;
  info: { version: string; description: string };
  servers: Record<string, { host: string; protocol: string; variables?: JsonObject }>;
  defaultContentType: string;
  channels: Record<string, { address: string; description: string; messages: Record<string, { $ref: string }>; 'x-close-codes': { code: number }[] }>;
  operations: Record<string, { action: string; messages: { $ref: string }[]; reply?: { messages: { $ref: string }[] } }>;
  components: { messages: Record<string, Message> };
}

/** SPEC.md, "Server events, profile P": each event type and its data fields, as the specification lists them. */
const SPEC_P_SERVER_EVENTS: Record<string, string[]> = {
  ocr_progress: ['document_id', 'progress', 'status'],
  sync_progress: ['source_id', 'processed', 'total', 'current_file'],
  notification: ['id', 'type', 'title', 'message'],
  document_created: ['document_id', 'title', 'source'],
  document_updated: ['document_id', 'changes'],
  queue_status: ['pending', 'processing', 'completed'],
};

const document = buildAsyncApiDocument() as unknown as Document;
const messages = document.components.messages;
const channel = document.channels['ws']!;

const payloads = new Ajv2020({ strict: false, allErrors: true });
addFormats(payloads);
const compile = (key: string) => payloads.compile(messages[key]!.payload);

/** The JSON pointer's target in the document, or undefined. */
const resolve = (ref: string): unknown =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, segment) => (node as JsonObject | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')], document);

const refsIn = (node: unknown): string[] => {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refsIn(value)));
};

describe('the AsyncAPI document of /ws', () => {
  it('is a valid AsyncAPI 3.0.0 document by the official JSON schema', () => {
    // Arrange: the schema embeds its own copy of the draft-07 meta-schema, so Ajv must not add its built-in one.
    const ajv = new Ajv({ strict: false, allErrors: true, meta: false, validateSchema: false });
    addFormats(ajv);
    const validate = ajv.compile(specs.schemas['3.0.0']);

    // Act
    const valid = validate(document);

    // Assert
    expect(validate.errors ?? [], ajv.errorsText(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
    expect(document.asyncapi).toBe('3.0.0');
  }, 30_000); // compiling the official schema (every binding of every protocol) takes seconds on a loaded machine

  it('resolves every reference it makes', () => {
    // Act
    const unresolved = refsIn(document).filter((ref) => resolve(ref) === undefined);

    // Assert
    expect(unresolved).toEqual([]);
  });

  it("carries the package's version, both servers and JSON as the content type", () => {
    // Arrange
    const { version } = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };

    // Assert
    expect(document.info.version).toBe(version);
    expect(document.servers['local']).toMatchObject({ host: 'localhost:8080', protocol: 'ws' });
    expect(document.servers['production']).toMatchObject({ host: '{host}', protocol: 'wss', variables: { host: expect.any(Object) } });
    expect(document.defaultContentType).toBe('application/json');
  });

  it('describes the auth-then-subscribe flow, the connection limit and the message budget', () => {
    // Assert
    const { description } = document.info;
    expect(description).toContain('"type": "auth"');
    expect(description).toContain('"type": "subscribe"');
    expect(description).toContain(`${MAX_CONNECTIONS_PER_USER} authenticated connections per user`);
    expect(description).toContain(`${MESSAGE_BUDGET.burst} messages at once, ${MESSAGE_BUDGET.perSecond} a second`);
    expect(description).toContain(`${MESSAGE_BUDGET.beforeAuthMessages} messages and ${MESSAGE_BUDGET.beforeAuthBytes} bytes`);
  });

  it('has one channel at /ws holding every message', () => {
    // Assert
    expect(Object.keys(document.channels)).toEqual(['ws']);
    expect(channel.address).toBe('/ws');
    expect(Object.keys(channel.messages).sort()).toEqual(Object.keys(messages).sort());
  });

  it('describes every P server event of SPEC.md as a message with exactly its data fields, all required', () => {
    for (const [type, fields] of Object.entries(SPEC_P_SERVER_EVENTS)) {
      // Arrange
      const payload = messages[type]?.payload as { properties: { data: { required: string[]; additionalProperties: boolean } } } | undefined;

      // Assert
      expect(payload, type).toBeDefined();
      expect([...payload!.properties.data.required].sort(), type).toEqual([...fields].sort());
      expect(payload!.properties.data.additionalProperties, type).toBe(false);
    }
  });

  it('describes exactly the client messages the channel accepts', () => {
    // Act
    const sent = Object.values(document.operations)
      .filter((operation) => operation.action === 'send')
      .flatMap((operation) => operation.messages.map((ref) => ref.$ref.split('/').at(-1)));

    // Assert
    expect(sent.sort()).toEqual([...CLIENT_MESSAGE_TYPES].sort());
    expect(document.operations['sendAuth']).toMatchObject({ action: 'send', messages: [{ $ref: '#/channels/ws/messages/auth' }] });
    expect(document.operations['sendSubscribe']).toMatchObject({ action: 'send', messages: [{ $ref: '#/channels/ws/messages/subscribe' }] });
    expect(document.operations['receiveEvents']).toMatchObject({ action: 'receive' });
  });

  it.each([...CLIENT_MESSAGE_TYPES])('has a %s schema that accepts its example and refuses it with a field it does not have, as the channel does', (type) => {
    // Arrange
    const validate = compile(type);
    const example = messages[type]!.examples[0]!.payload;
    const withUnknownField = { ...example, unexpected: true };

    // Act
    const accepted = validate(example);
    const refused = !validate(withUnknownField);

    // Assert
    expect(accepted, payloads.errorsText(validate.errors)).toBe(true);
    expect(refused).toBe(true);
    expect(clientMessage.safeParse(example).success).toBe(true);
    expect(clientMessage.safeParse(withUnknownField).success).toBe(false);
  });

  it('gives every message an example that its payload accepts', () => {
    for (const [key, message] of Object.entries(messages)) {
      // Arrange
      const validate = compile(key);

      // Assert
      expect(message.examples.length, key).toBeGreaterThan(0);
      for (const example of message.examples) expect(validate(example.payload), `${key}/${example.name}: ${payloads.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('refuses an extra field in the envelope or the data of every server event', () => {
    for (const type of Object.keys(SPEC_P_SERVER_EVENTS)) {
      // Arrange
      const validate = compile(type);
      const example = messages[type]!.examples[0]!.payload as { type: string; data: JsonObject };

      // Assert
      expect(validate({ ...example, timestamp: '2024-01-01T00:00:00Z' }), type).toBe(false);
      expect(validate({ ...example, data: { ...example.data, extra: 1 } }), type).toBe(false);
    }
  });

  it('lets the e2e validator take every server message example and refuse an unknown type', () => {
    // Act
    const violations = serverMessageKeys().flatMap((key) => messages[key]!.examples.map((example) => asyncApiViolation(example.payload)));

    // Assert
    expect(violations.filter(Boolean)).toEqual([]);
    expect(serverMessageKeys()).toEqual(expect.arrayContaining([...Object.keys(SPEC_P_SERVER_EVENTS), 'auth_success', 'subscribed', 'pong', 'error']));
    expect(asyncApiViolation({ type: 'auth', token: 'x' })).toMatch(/does not list/);
    expect(asyncApiViolation({ type: 'pong', data: { late: true } })).toMatch(/does not allow/);
  });

  it('lists every close code and every fixed error message the service sends', () => {
    // Arrange
    const fixedMessages = [...Object.values(CHANNEL_ERROR_MESSAGES).filter((text) => typeof text === 'string'), ...Object.values(SESSION_END_MESSAGES)];

    // Assert
    for (const code of Object.values(WS_CLOSE_CODES)) expect(channel.description, String(code)).toContain(`| ${code} |`);
    expect(channel['x-close-codes'].map(({ code }) => code).sort()).toEqual(Object.values(WS_CLOSE_CODES).sort());
    for (const text of fixedMessages) expect(channel.description).toContain(text);
  });
});
