import { readFileSync } from 'node:fs';
import { MAX_CLIENT_MESSAGE_BYTES } from '../../functions/realtime/schemas';
import { MESSAGE_BUDGET } from '../../shared/domain/connections/message-budget';
import {
  CONNECTION_LIFETIME_SECONDS,
  MAX_CONNECTIONS_PER_USER,
  MAX_FRAME_BYTES,
  SERVER_EVENT_TYPES,
  WS_CLOSE_CODES,
} from '../../shared/domain/connections/ports';
import { closeCodes, DEFAULT_AUTH_TIMEOUT_SECONDS, errorMessageDoc, errorTables } from './channel-errors';
import { clientMessageDocs, type ClientMessageType } from './client-messages';
import { eventMessageDocs, replyMessageDocs, type MessageDoc } from './server-messages';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The one channel's key in `channels` (keys are identifiers; its address is `/ws`). */
export const CHANNEL_ID = 'ws';
const CHANNEL_ADDRESS = '/ws';

const channelMessageRef = (key: string) => ({ $ref: `#/channels/${CHANNEL_ID}/messages/${key}` });
const channelRef = { $ref: `#/channels/${CHANNEL_ID}` };

const INFO_DESCRIPTION = [
  'The real-time channel of the document service (SPEC.md, profile P, "Events"): one WebSocket per client at `/ws`, ' +
    'JSON text messages, each an object with a `type`. Server messages are `{type, data}`.',
  '',
  'This document describes a **client** of the channel: its `send` operations are what a client sends, its `receive` ' +
    'operations what it receives.',
  '',
  '## Flow',
  '',
  '1. Connect to `/ws`.',
  '2. Send `{"type": "auth", "token": "<access token of the HTTP API>"}` and wait for the answer: `auth_success`, or ' +
    '`error` (UNAUTHORIZED for a bad, expired or revoked token; the connection is then closed). Anything else sent before ' +
    `is answered UNAUTHORIZED; a connection still unauthenticated ${DEFAULT_AUTH_TIMEOUT_SECONDS} s after connecting ` +
    '(`WS_AUTH_TIMEOUT_SECONDS`) gets UNAUTHORIZED and is closed (in the cloud, on its next message).',
  '3. Optionally send `{"type": "subscribe", "events": [...]}` to receive only some event types (before any, every type ' +
    `comes: ${SERVER_EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}). \`ping\` is answered \`pong\`.`,
  '4. Receive events until the connection ends: it lives as long as the token it authenticated with (a logout, a ' +
    "password change or the user's deletion ends it with an UNAUTHORIZED error saying why), and at most " +
    `${CONNECTION_LIFETIME_SECONDS / 3600} h.`,
  '',
  '## Limits',
  '',
  `- **${MAX_CONNECTIONS_PER_USER} authenticated connections per user**: the next \`auth\` is answered RATE_LIMITED ` +
    '(`details.limit`) and the connection closed.',
  `- **Message budget** per connection, checked before a message is read: ${MESSAGE_BUDGET.burst} messages at once, ` +
    `${MESSAGE_BUDGET.perSecond} a second; past it RATE_LIMITED (\`details.reason: "message_rate"\`), and the ` +
    `${MESSAGE_BUDGET.refusals + 1}th such message in a row closes the connection. Before auth a connection may send ` +
    `${MESSAGE_BUDGET.beforeAuthMessages} messages and ${MESSAGE_BUDGET.beforeAuthBytes} bytes (then RATE_LIMITED, ` +
    `\`reason: "before_auth"\`, and closed); the ${MESSAGE_BUDGET.invalidMessages}th invalid message closes it ` +
    '(VALIDATION_ERROR, `reason: "invalid_messages"`).',
  `- Messages over ${MAX_CLIENT_MESSAGE_BYTES} bytes are refused (VALIDATION_ERROR); frames over ${MAX_FRAME_BYTES} bytes ` +
    `close the connection (${WS_CLOSE_CODES.frameTooLarge}).`,
  '- Events are best effort: a client that does not read its messages is dropped.',
].join('\n');

const SERVERS = {
  local: {
    host: 'localhost:8080',
    protocol: 'ws',
    title: 'Local runtime',
    description: 'The local runtime (`npm start`): `/ws` on the HTTP API\'s own host and port (`HOST`, `PORT`).',
  },
  production: {
    host: '{host}',
    protocol: 'wss',
    title: 'Deployment',
    description:
      'A deployment behind TLS. In the cloud the channel is API Gateway\'s WebSocket API: its URL is the stack\'s ' +
      '`WebSocketUrl` output (`wss://<api-id>.execute-api.<region>.amazonaws.com/prod`), not `/ws` on the HTTP API\'s host; ' +
      'the messages are the same.',
    variables: {
      host: {
        description: 'The host (and port, if not 443) clients reach the channel on.',
        examples: ['docs.example.com'],
      },
    },
  },
};

/** What each client message is answered with, for the operations' replies. */
const REPLIES: Record<ClientMessageType, string[]> = {
  auth: ['auth_success', 'error'],
  subscribe: ['subscribed', 'error'],
  ping: ['pong', 'error'],
};

const OPERATION_IDS: Record<ClientMessageType, string> = { auth: 'sendAuth', subscribe: 'sendSubscribe', ping: 'sendPing' };

function operations(clientTypes: ClientMessageType[]): Record<string, unknown> {
  const sends = Object.fromEntries(
    clientTypes.map((type) => [
      OPERATION_IDS[type],
      {
        action: 'send',
        channel: channelRef,
        title: `Send ${type}`,
        summary: `Sends \`${type}\`; answered ${REPLIES[type].map((reply) => `\`${reply}\``).join(' or ')}.`,
        messages: [channelMessageRef(type)],
        reply: { channel: channelRef, messages: REPLIES[type].map(channelMessageRef) },
      },
    ]),
  );
  return {
    ...sends,
    receiveEvents: {
      action: 'receive',
      channel: channelRef,
      title: 'Receive events',
      summary: 'The P server events of the subscribed types, from the moment the connection is authenticated.',
      messages: SERVER_EVENT_TYPES.map(channelMessageRef),
    },
    receiveErrors: {
      action: 'receive',
      channel: channelRef,
      title: 'Receive errors',
      summary:
        'Errors that answer no message of the client (the auth timeout, an ended session), and every error after which the service closes the connection.',
      messages: [channelMessageRef('error')],
    },
  };
}

/**
 * The AsyncAPI 3.0.0 document of the `/ws` channel, built from the channel's own definitions: the client
 * messages' zod schemas (functions/realtime/schemas.ts), the server events' types and the event names
 * (shared/domain/events, shared/domain/connections), the limits, close codes and error messages the service
 * uses. api-contract/generate.ts writes it to docs/api/asyncapi.json; the tests validate it and check every
 * server message the e2e suites receive against it.
 */
export function buildAsyncApiDocument(): Record<string, unknown> {
  const clients = clientMessageDocs();
  const messages: Record<string, MessageDoc> = { ...clients, ...replyMessageDocs(), error: errorMessageDoc(), ...eventMessageDocs() };
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Document service real-time channel',
      version: packageJson.version,
      description: INFO_DESCRIPTION,
      license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
    },
    servers: SERVERS,
    defaultContentType: 'application/json',
    channels: {
      [CHANNEL_ID]: {
        address: CHANNEL_ADDRESS,
        title: 'The real-time channel',
        summary: 'Authenticate, subscribe, receive the P events.',
        description: `One WebSocket connection per client; every message is a JSON text frame.\n\n${errorTables()}`,
        messages: Object.fromEntries(Object.keys(messages).map((key) => [key, { $ref: `#/components/messages/${key}` }])),
        bindings: { ws: { method: 'GET', bindingVersion: '0.1.0' } },
        'x-close-codes': closeCodes(),
      },
    },
    operations: operations(Object.keys(clients) as ClientMessageType[]),
    components: {
      messages,
    },
  };
}
