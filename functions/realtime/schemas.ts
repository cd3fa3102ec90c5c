import * as z from '../../shared/zod';

/** Client messages of the P WebSocket channel; built on the first message (z.lazy), not at the cold start. */
export const clientMessage = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('auth'), token: z.string().check(z.minLength(1)) }),
    z.object({ type: z.literal('subscribe'), events: z.array(z.string()).check(z.maxLength(20)) }),
    z.object({ type: z.literal('ping') }),
  ]),
);

/** Larger client messages are refused unread; API Gateway's own frame limit is 32 KB. */
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

export type ClientMessage = z.output<typeof clientMessage>;
