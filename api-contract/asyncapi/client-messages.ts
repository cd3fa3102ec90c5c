import * as z from '../../shared/zod';
import { clientMessage, type ClientMessage } from '../../functions/realtime/schemas';
import { EVENT_NAMES } from '../../shared/domain/connections/subscribe-connection';
import { embedded, type JsonSchema } from './schema';
import type { MessageDoc } from './server-messages';

/** The type of a client message, as the channel's schema (functions/realtime/schemas.ts) accepts it. */
export type ClientMessageType = ClientMessage['type'];

interface ClientDoc<T extends ClientMessageType> {
  title: string;
  summary: string;
  description: string;
  /** Typed by the schema's output, so that an example the channel would refuse does not compile. */
  example: Extract<ClientMessage, { type: T }>;
}

/** What each client message is for; keyed by type, so that a message the schema adds without one does not compile. */
const CLIENT_DOCS: { [T in ClientMessageType]: ClientDoc<T> } = {
  auth: {
    title: 'Authenticate',
    summary: 'Authenticates the connection with an access token of the HTTP API.',
    description:
      'The first message to send, with the token of `POST /api/auth/login` (or `/api/auth/refresh`), or a personal API ' +
      'token (`dst_...`, `POST /api/tokens`: any scope; the connection then lives until the token expires or is deleted, ' +
      'and ends with its user\'s password change like a session\'s). Wait for its answer, ' +
      '`auth_success` or `error`, before sending anything else: messages are served concurrently. A bad, expired or revoked ' +
      'token is answered UNAUTHORIZED and a user past the connection limit RATE_LIMITED; both then close the connection. ' +
      'Sent again on an authenticated connection with a fresh token of the same user, it moves the connection to that ' +
      "token (it then lives as long as the new token); another user's token is answered FORBIDDEN.",
    example: { type: 'auth', token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2ZjFkIn0.c2lnbmF0dXJl' },
  },
  subscribe: {
    title: 'Choose the events',
    summary: 'Replaces the event types the connection receives.',
    description:
      'Before any `subscribe` a connection receives every event type. `notifications` (as SPEC.md spells it) means ' +
      '`notification`; names given twice count once. A list naming an unknown event changes nothing and is answered ' +
      'VALIDATION_ERROR with `details.unknown_events` and `details.accepted_events`. Answered `subscribed` with the types ' +
      'now received.',
    example: { type: 'subscribe', events: ['ocr_progress', 'notifications'] },
  },
  ping: {
    title: 'Ping',
    summary: 'Answered `pong`: a keep-alive that counts against the message budget like any message.',
    description: 'Only once authenticated: before `auth` it is answered UNAUTHORIZED, like any message but `auth`.',
    example: { type: 'ping' },
  },
};

/** The accepted names as the payload's `events` items: the schema takes any string, the use case refuses the rest. */
function withEventNames(schema: JsonSchema): JsonSchema {
  const properties = schema['properties'] as Record<string, JsonSchema>;
  const events = properties['events']!;
  return {
    ...schema,
    properties: {
      ...properties,
      events: { ...events, items: { ...(events['items'] as JsonSchema), enum: [...EVENT_NAMES.keys()] } },
    },
  };
}

/**
 * Each client message as a message of the document: its payload is the channel's own zod schema turned into
 * JSON Schema (the input side, as a client sends it), one per member of the discriminated union.
 */
export function clientMessageDocs(): Record<ClientMessageType, MessageDoc> {
  const docs: Partial<Record<ClientMessageType, MessageDoc>> = {};
  for (const option of clientMessage._zod.innerType._zod.def.options) {
    const payload = embedded(z.toJSONSchema(option, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema);
    const type = ((payload['properties'] as Record<string, JsonSchema>)['type']!['const']) as ClientMessageType;
    const { title, summary, description, example } = CLIENT_DOCS[type];
    docs[type] = {
      name: type,
      title,
      summary,
      description,
      payload: type === 'subscribe' ? withEventNames(payload) : payload,
      examples: [{ name: type, summary, payload: example }],
    };
  }
  return docs as Record<ClientMessageType, MessageDoc>;
}
