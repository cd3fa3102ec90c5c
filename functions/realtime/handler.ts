import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import type { Principal } from '../../shared/domain/principal';
import { closeIfUnauthenticated } from '../../shared/domain/connections/close-if-unauthenticated';
import { refuseConnection } from '../../shared/domain/connections/refuse-connection';
import { subscribeConnection } from '../../shared/domain/connections/subscribe-connection';
import { connectionState } from '../../shared/domain/connections/connection-state';
import { authenticateConnection } from '../../shared/domain/connections/authenticate-connection';
import { closeConnection } from '../../shared/domain/connections/close-connection';
import { MESSAGE_BUDGET, MessageBudgets, type MessageBudget, type MessageBudgetLimits } from '../../shared/domain/connections/message-budget';
import { openConnection } from '../../shared/domain/connections/open-connection';
import { type ChannelDeps, SERVER_EVENT_TYPES } from '../../shared/domain/connections/ports';
import { sessionEndedMessage } from '../../shared/domain/connections/sessions';
import { logger } from '../../shared/observability/logger';
import { CHANNEL_ERROR_MESSAGES, CLIENT_MESSAGE_TYPES, clientMessage, MAX_CLIENT_MESSAGE_BYTES, type ClientMessage } from './schemas';

type Reply = { type: string; data: Record<string, unknown> };

export interface RealtimeDeps extends ChannelDeps {
  authenticate(token: string): Promise<Principal>;
  wsAuthTimeoutSeconds: number;
}

const ok: APIGatewayProxyResultV2 = { statusCode: 200 };
const reply = (message: Reply): APIGatewayProxyResultV2 => ({ statusCode: 200, body: JSON.stringify(message) });
const errorMessage = (code: string, message: string, details: Record<string, unknown> = {}): Reply => ({
  type: 'error',
  data: { code, message, details },
});
const errorReply = (code: string, message: string, details: Record<string, unknown> = {}) =>
  reply(errorMessage(code, message, details));

/**
 * The WebSocket routes. $connect records the connection and $disconnect forgets it; $default answers each
 * client message through the route response. Until a connection authenticates with `{type: "auth", token}`,
 * other messages get UNAUTHORIZED, and past the auth timeout the connection is closed. A refused token or a
 * user over the connection limit gets its error pushed through @connections, then the connection is closed, as
 * does a connection whose session has ended (its token logged out, its password changed, its token expired)
 * when it next speaks.
 * Malformed, oversized or unknown messages get an error message and never an exception.
 *
 * Each connection's messages are first taken from its {@link MessageBudget}, kept in this instance's memory, so
 * that a flood costs no database read: over the rate it gets RATE_LIMITED, then is closed; before auth it may
 * send a few messages, and any connection a few invalid ones, then it is closed. The local runtime's one
 * instance sees every message; each Lambda instance sees its share, a best effort behind the stage throttle.
 */
export function createRealtimeHandler(deps: RealtimeDeps, limits: MessageBudgetLimits = MESSAGE_BUDGET) {
  const budgets = new MessageBudgets(limits);
  return async (event: APIGatewayProxyWebsocketEventV2): Promise<APIGatewayProxyResultV2> => {
    const { routeKey, connectionId } = event.requestContext;
    if (routeKey === '$connect') {
      await openConnection(deps, connectionId);
      return ok;
    }
    if (routeKey === '$disconnect') {
      budgets.forget(connectionId);
      await closeConnection(deps, connectionId).catch((error: unknown) =>
        logger.error('websocket disconnect not recorded', { connection_id: connectionId, error }),
      );
      return ok;
    }
    const budget = budgets.of(connectionId);
    const body = event.body ?? '';
    const admission = budget.admit(bytesOf(body, event.isBase64Encoded), deps.clock.now().getTime());
    if (admission.verdict === 'drop') return ok;
    if (admission.verdict === 'refuse') return reply(admission.error);
    let type: string | undefined;
    try {
      if (admission.verdict === 'close') return await refuse(deps, connectionId, admission.error);
      const parsed = parse(body);
      if ('invalid' in parsed) {
        const last = budget.invalidMessage();
        return last ? await refuse(deps, connectionId, last) : parsed.invalid;
      }
      type = parsed.message.type;
      return await serve(deps, connectionId, parsed.message, budget);
    } catch (error) {
      logger.error('websocket message failed', { connection_id: connectionId, type, error });
      return errorReply('INTERNAL_ERROR', CHANNEL_ERROR_MESSAGES.internal);
    }
  };
}

/** Sends `error` as the connection's last message and closes it. */
async function refuse(deps: RealtimeDeps, connectionId: string, error: Reply): Promise<APIGatewayProxyResultV2> {
  await refuseConnection(deps, connectionId, JSON.stringify(error));
  return ok;
}

/** The size of the client's frame: a binary one arrives base64-encoded. */
const bytesOf = (body: string, base64: boolean) => (base64 ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body));

const authTimedOut = (seconds: number) => errorMessage('UNAUTHORIZED', CHANNEL_ERROR_MESSAGES.authTimeout(seconds));

/**
 * The end of a connection's time to authenticate, for a gateway that can keep a timer per connection (the
 * local one): a connection still unauthenticated gets UNAUTHORIZED and is closed.
 */
export const createAuthDeadlineHandler =
  (deps: RealtimeDeps) =>
  async (connectionId: string): Promise<void> => {
    await closeIfUnauthenticated(deps, connectionId, JSON.stringify(authTimedOut(deps.wsAuthTimeoutSeconds)));
  };

/** The client message, or the error reply it deserves. */
function parse(raw: string): { message: ClientMessage } | { invalid: APIGatewayProxyResultV2 } {
  if (Buffer.byteLength(raw) > MAX_CLIENT_MESSAGE_BYTES) {
    return { invalid: errorReply('VALIDATION_ERROR', CHANNEL_ERROR_MESSAGES.tooLarge(MAX_CLIENT_MESSAGE_BYTES)) };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { invalid: errorReply('VALIDATION_ERROR', CHANNEL_ERROR_MESSAGES.notJson) };
  }
  const parsed = clientMessage.safeParse(json);
  if (parsed.success) return { message: parsed.data };
  return {
    invalid: errorReply('VALIDATION_ERROR', CHANNEL_ERROR_MESSAGES.malformed, {
      type: (json as { type?: unknown } | null)?.type ?? null,
      accepted_types: CLIENT_MESSAGE_TYPES,
    }),
  };
}

/** Serves a valid message; `budget` learns here that the connection is authenticated. */
async function serve(deps: RealtimeDeps, connectionId: string, message: ClientMessage, budget: MessageBudget): Promise<APIGatewayProxyResultV2> {
  if (message.type === 'auth') {
    const result = await authenticateConnection(deps, connectionId, message.token);
    switch (result.outcome) {
      case 'authenticated':
        budget.authenticated();
        return reply({ type: 'auth_success', data: { user_id: result.principal.userId, username: result.principal.username } });
      case 'unauthorized':
        return refuse(deps, connectionId, errorMessage('UNAUTHORIZED', result.reason));
      case 'limit':
        return refuse(
          deps,
          connectionId,
          errorMessage('RATE_LIMITED', CHANNEL_ERROR_MESSAGES.connectionLimit(result.limit), { limit: result.limit }),
        );
      case 'other_user':
        budget.authenticated();
        return errorReply('FORBIDDEN', CHANNEL_ERROR_MESSAGES.otherUser);
      case 'gone':
        return ok;
    }
  }
  const state = await connectionState(deps, connectionId, deps.wsAuthTimeoutSeconds);
  if (state.state === 'authenticated' || state.state === 'ended') budget.authenticated();
  if (state.state === 'expired') {
    return refuse(deps, connectionId, authTimedOut(deps.wsAuthTimeoutSeconds));
  }
  if (state.state === 'ended') {
    await refuseConnection(deps, connectionId, sessionEndedMessage(state.end));
    return ok;
  }
  if (state.state === 'pending') {
    return errorReply('UNAUTHORIZED', CHANNEL_ERROR_MESSAGES.authenticateFirst, { type: message.type });
  }
  if (message.type === 'ping') return reply({ type: 'pong', data: {} });
  const result = await subscribeConnection(deps, connectionId, message.events);
  if (result.ok) return reply({ type: 'subscribed', data: { events: result.events } });
  if ('gone' in result) return ok;
  return errorReply('VALIDATION_ERROR', CHANNEL_ERROR_MESSAGES.unknownEvents(result.unknown), {
    field: 'events',
    unknown_events: result.unknown,
    accepted_events: SERVER_EVENT_TYPES,
  });
}
