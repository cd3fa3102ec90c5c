import * as z from '../../shared/zod';
import { CHANNEL_ERROR_MESSAGES, CLIENT_MESSAGE_TYPES, MAX_CLIENT_MESSAGE_BYTES } from '../../functions/realtime/schemas';
import { commonEnvSchema } from '../../shared/container/kit/config';
import { MESSAGE_BUDGET, MessageBudget, type ChannelError } from '../../shared/domain/connections/message-budget';
import {
  CONNECTION_LIFETIME_SECONDS,
  MAX_CONNECTIONS_PER_USER,
  MAX_FRAME_BYTES,
  SERVER_EVENT_TYPES,
  WS_CLOSE_CODES,
} from '../../shared/domain/connections/ports';
import { SESSION_END_MESSAGES, type ConnectionEnd } from '../../shared/domain/connections/sessions';
import type { ErrorCode } from '../../shared/domain/errors';
import { closedObject, count, serverEnvelope, text, textEnum, type JsonSchema } from './schema';
import type { MessageDoc } from './server-messages';

/** The auth timeout a deployment has unless WS_AUTH_TIMEOUT_SECONDS says otherwise: the configuration's default. */
export const DEFAULT_AUTH_TIMEOUT_SECONDS = z.parse(commonEnvSchema.shape.WS_AUTH_TIMEOUT_SECONDS, undefined);

/** One error the channel sends: when, with which message and details, and what becomes of the connection. */
export interface ErrorCase {
  code: ErrorCode;
  when: string;
  /** The message as the service writes it (with this deployment's defaults where it names a limit). */
  message: string;
  /** The fields of `details`, exactly. */
  details: Record<string, JsonSchema>;
  closes: boolean;
  /** An example of the whole `data`, where the case's details need values. */
  example?: ChannelError['data'];
}

const END_REASONS = Object.keys(SESSION_END_MESSAGES) as ConnectionEnd[];

/**
 * The budget's own errors, taken from a budget run to its limits rather than copied: the texts and details are
 * then the ones a client gets, and follow MESSAGE_BUDGET when it changes.
 */
function budgetErrors(): { beforeAuth: ChannelError; rate: ChannelError; rateClose: ChannelError; invalid: ChannelError } {
  const limits = MESSAGE_BUDGET;
  const unauthenticated = new MessageBudget(limits);
  const rated = new MessageBudget(limits);
  rated.authenticated();
  const flooded = Array.from({ length: limits.burst + limits.refusals + 1 }, () => rated.admit(1, 0));
  const lastBeforeAuth = Array.from({ length: limits.beforeAuthMessages + 1 }, () => unauthenticated.admit(1, 0)).at(-1);
  const invalidating = new MessageBudget(limits);
  const lastInvalid = Array.from({ length: limits.invalidMessages }, () => invalidating.invalidMessage()).at(-1);
  const refused = flooded.find((admission) => admission.verdict === 'refuse');
  const closed = flooded.at(-1);
  if (lastBeforeAuth?.verdict !== 'close' || refused?.verdict !== 'refuse' || closed?.verdict !== 'close' || !lastInvalid) {
    throw new Error('The message budget no longer refuses and closes as the AsyncAPI document describes it');
  }
  return { beforeAuth: lastBeforeAuth.error, rate: refused.error, rateClose: closed.error, invalid: lastInvalid };
}

/** Every error the channel sends, in the order a client may meet them. */
export function errorCases(): ErrorCase[] {
  const budget = budgetErrors();
  const rateDetails = {
    reason: { type: 'string', const: 'message_rate' },
    burst: count('Messages allowed at once.'),
    per_second: count('Messages a second, refilled.'),
    retry_after_seconds: count('Seconds until a message is served again.'),
  };
  const connectionLimit = CHANNEL_ERROR_MESSAGES.connectionLimit(MAX_CONNECTIONS_PER_USER);
  return [
    {
      code: 'UNAUTHORIZED',
      when: 'any message but `auth` before the connection is authenticated',
      message: CHANNEL_ERROR_MESSAGES.authenticateFirst,
      details: { type: textEnum('The type of the message refused.', CLIENT_MESSAGE_TYPES) },
      closes: false,
      example: { code: 'UNAUTHORIZED', message: CHANNEL_ERROR_MESSAGES.authenticateFirst, details: { type: 'subscribe' } },
    },
    {
      code: 'UNAUTHORIZED',
      when: '`auth` with a bad, expired or revoked token',
      message: 'why the token was refused, as the HTTP API says it with a 401',
      details: {},
      closes: true,
      // The token service's words (shared/adapters/jwt), one of several: an illustration, not part of the contract.
      example: { code: 'UNAUTHORIZED', message: 'The token has expired', details: {} },
    },
    {
      code: 'UNAUTHORIZED',
      when: `no \`auth\` within the auth timeout (WS_AUTH_TIMEOUT_SECONDS, default ${DEFAULT_AUTH_TIMEOUT_SECONDS} s)`,
      message: CHANNEL_ERROR_MESSAGES.authTimeout(DEFAULT_AUTH_TIMEOUT_SECONDS),
      details: {},
      closes: true,
    },
    ...END_REASONS.map((reason) => ({
      code: 'UNAUTHORIZED' as const,
      when: `the connection's session ended: \`${reason}\``,
      message: SESSION_END_MESSAGES[reason],
      // One shape for every reason, so that `details` is one closed object whichever ended the session.
      details: { reason: textEnum('Why the session ended.', END_REASONS) },
      closes: true,
      example: { code: 'UNAUTHORIZED', message: SESSION_END_MESSAGES[reason], details: { reason } },
    })),
    {
      code: 'RATE_LIMITED',
      when: `\`auth\` of a user who already holds ${MAX_CONNECTIONS_PER_USER} authenticated connections`,
      message: connectionLimit,
      details: { limit: count('Connections a user may hold.') },
      closes: true,
      example: { code: 'RATE_LIMITED', message: connectionLimit, details: { limit: MAX_CONNECTIONS_PER_USER } },
    },
    {
      code: 'FORBIDDEN',
      when: "`auth` with another user's token on an authenticated connection",
      message: CHANNEL_ERROR_MESSAGES.otherUser,
      details: {},
      closes: false,
    },
    {
      code: 'VALIDATION_ERROR',
      when: `a message over ${MAX_CLIENT_MESSAGE_BYTES} bytes`,
      message: CHANNEL_ERROR_MESSAGES.tooLarge(MAX_CLIENT_MESSAGE_BYTES),
      details: {},
      closes: false,
    },
    { code: 'VALIDATION_ERROR', when: 'a message that is not JSON', message: CHANNEL_ERROR_MESSAGES.notJson, details: {}, closes: false },
    {
      code: 'VALIDATION_ERROR',
      when: 'an unknown type, a missing or wrong field, or a field the message does not have',
      message: CHANNEL_ERROR_MESSAGES.malformed,
      details: {
        type: { description: "The message's `type` as sent (any JSON value), or null." },
        accepted_types: { type: 'array', items: textEnum('A client message type.', CLIENT_MESSAGE_TYPES) },
      },
      closes: false,
      example: {
        code: 'VALIDATION_ERROR',
        message: CHANNEL_ERROR_MESSAGES.malformed,
        details: { type: 'unsubscribe', accepted_types: [...CLIENT_MESSAGE_TYPES] },
      },
    },
    {
      code: 'VALIDATION_ERROR',
      when: '`subscribe` naming an unknown event (nothing changes)',
      message: CHANNEL_ERROR_MESSAGES.unknownEvents(['<names>']),
      details: {
        field: { type: 'string', const: 'events' },
        unknown_events: { type: 'array', items: text('A name refused.') },
        accepted_events: { type: 'array', items: textEnum('An event type.', SERVER_EVENT_TYPES) },
      },
      closes: false,
      example: {
        code: 'VALIDATION_ERROR',
        message: CHANNEL_ERROR_MESSAGES.unknownEvents(['documents_deleted']),
        details: { field: 'events', unknown_events: ['documents_deleted'], accepted_events: [...SERVER_EVENT_TYPES] },
      },
    },
    {
      code: 'VALIDATION_ERROR',
      when: `the ${MESSAGE_BUDGET.invalidMessages}th invalid message of a connection (too large, not JSON or malformed)`,
      message: budget.invalid.data.message,
      details: { reason: { type: 'string', const: 'invalid_messages' }, limit: count('Invalid messages allowed.') },
      closes: true,
      example: budget.invalid.data,
    },
    {
      code: 'RATE_LIMITED',
      when: `more than ${MESSAGE_BUDGET.beforeAuthMessages} messages or ${MESSAGE_BUDGET.beforeAuthBytes} bytes before the connection is authenticated`,
      message: budget.beforeAuth.data.message,
      details: {
        reason: { type: 'string', const: 'before_auth' },
        limit_messages: count('Messages allowed before auth.'),
        limit_bytes: count('Bytes allowed before auth.'),
      },
      closes: true,
      example: budget.beforeAuth.data,
    },
    {
      code: 'RATE_LIMITED',
      when: `a message past the budget (${MESSAGE_BUDGET.burst} at once, ${MESSAGE_BUDGET.perSecond} a second)`,
      message: budget.rate.data.message,
      details: rateDetails,
      closes: false,
      example: budget.rate.data,
    },
    {
      code: 'RATE_LIMITED',
      when: `the ${MESSAGE_BUDGET.refusals + 1}th message in a row past the budget`,
      message: budget.rateClose.data.message,
      details: rateDetails,
      closes: true,
      example: budget.rateClose.data,
    },
    {
      code: 'INTERNAL_ERROR',
      when: 'the service failed to serve a message (the connection stays usable)',
      message: CHANNEL_ERROR_MESSAGES.internal,
      details: {},
      closes: false,
    },
  ];
}

/** The close codes a client sees, with what each means; keyed like WS_CLOSE_CODES so that none goes unexplained. */
const CLOSE_CODE_MEANINGS: Record<keyof typeof WS_CLOSE_CODES, string> = {
  closedByService:
    'The service closed the connection after an `error` saying why (see the errors below: a refused token, the connection ' +
    "limit, the auth timeout, an ended session, a spent message budget); also a client's own normal close.",
  lifetimeOver: `The connection's lifetime is over: ${CONNECTION_LIFETIME_SECONDS / 3600} h after connecting (API Gateway's limit, kept locally too); in the cloud also API Gateway's 10-minute idle timeout.`,
  frameTooLarge: `A frame above ${MAX_FRAME_BYTES} bytes: closed without an error message.`,
  dropped: 'No close frame: the local runtime dropped a client that let too much go unread (4 MB), or the runtime stopped.',
};

/** The close codes as rows: code and meaning. */
export const closeCodes = (): { code: number; meaning: string }[] =>
  (Object.keys(WS_CLOSE_CODES) as (keyof typeof WS_CLOSE_CODES)[])
    .map((name) => ({ code: WS_CLOSE_CODES[name], meaning: CLOSE_CODE_MEANINGS[name] }))
    .sort((a, b) => a.code - b.code);

const cell = (value: string) => value.replaceAll('|', '\\|').replaceAll('\n', ' ');
const detailKeys = (details: Record<string, JsonSchema>) => Object.keys(details).map((key) => `\`${key}\``).join(', ') || '—';

/** The channel description's tables: close codes, then errors. Markdown (CommonMark with tables). */
export function errorTables(): string {
  const codes = closeCodes().map(({ code, meaning }) => `| ${code} | ${cell(meaning)} |`);
  const errors = errorCases().map(
    (error) => `| ${error.code} | ${cell(error.when)} | ${cell(error.message)} | ${detailKeys(error.details)} | ${error.closes ? `closed (${WS_CLOSE_CODES.closedByService})` : 'stays open'} |`,
  );
  return [
    '### Close codes',
    '',
    '| code | meaning |',
    '|---|---|',
    ...codes,
    '',
    '### Errors',
    '',
    'Every error is `{type: "error", data: {code, message, details}}`. When the connection is closed, the error is its last message.',
    '',
    '| code | when | message | details | connection |',
    '|---|---|---|---|---|',
    ...errors,
  ].join('\n');
}

/** The `error` message: its data is one of the cases' shapes, each with exactly its details. */
export function errorMessageDoc(): MessageDoc {
  const cases = errorCases();
  const shapes = new Map<string, JsonSchema>();
  for (const error of cases) {
    const shape = closedObject(error.details);
    shapes.set(JSON.stringify(shape), shape);
  }
  const data = closedObject({
    code: textEnum('A P error code.', [...new Set(cases.map((error) => error.code))]),
    message: text('What went wrong, for a person.'),
    details: { description: 'What the code needs to act on: see the errors table of the channel.', anyOf: [...shapes.values()] },
  });
  const examples = cases.flatMap((error, index) => {
    const payload = error.example ?? (Object.keys(error.details).length === 0 ? { code: error.code, message: error.message, details: {} } : null);
    return payload ? [{ name: `error_${index + 1}`, summary: `${error.code}: ${error.when}`, payload: { type: 'error', data: payload } }] : [];
  });
  return {
    name: 'error',
    title: 'Error',
    summary: 'Something the client sent was refused, or the connection is being closed and this says why.',
    description: 'The `code` says what happened and `details` what a client can act on; the errors table of the `ws` channel lists every case.',
    payload: serverEnvelope('error', data),
    examples,
  };
}
