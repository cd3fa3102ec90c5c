import * as z from '../../shared/zod';

/** The types of the client messages, as the VALIDATION_ERROR for an unknown one lists them. */
export const CLIENT_MESSAGE_TYPES = ['auth', 'subscribe', 'ping'] as const;

/**
 * Client messages of the P WebSocket channel; built on the first message (z.lazy), not at the cold start.
 * Strict, as the HTTP API's bodies are: a field the channel does not know is refused rather than ignored, so
 * a client's typo is not mistaken for a message that was served.
 */
export const clientMessage = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('auth'), token: z.string().check(z.minLength(1)) }),
    z.strictObject({ type: z.literal('subscribe'), events: z.array(z.string()).check(z.maxLength(20)) }),
    z.strictObject({ type: z.literal('ping') }),
  ]),
);

/** Larger client messages are refused unread; API Gateway's own frame limit is 32 KB. */
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

/**
 * The texts of the errors the channel's handler (handler.ts) answers with, named here so that the channel's
 * AsyncAPI document (api-contract/asyncapi) lists the very messages the service sends. A token refused by
 * `auth` is answered with the reason the token service gives instead.
 */
export const CHANNEL_ERROR_MESSAGES = {
  internal: 'An unexpected error occurred',
  notJson: 'The message is not valid JSON',
  malformed: 'Unknown or malformed message',
  authenticateFirst: 'Authenticate first: send {"type": "auth", "token": "<jwt>"}',
  otherUser: 'This connection is authenticated as another user',
  tooLarge: (bytes: number) => `Messages may not exceed ${bytes} bytes`,
  authTimeout: (seconds: number) => `Not authenticated within ${seconds} seconds of connecting`,
  connectionLimit: (limit: number) => `At most ${limit} WebSocket connections per user are allowed; close one first`,
  unknownEvents: (names: string[]) => `Unknown event names: ${names.join(', ')}`,
} as const;

export type ClientMessage = z.output<typeof clientMessage>;
