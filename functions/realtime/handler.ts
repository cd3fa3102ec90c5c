import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import type { Principal } from '../../shared/domain/auth/principal';
import { AppError } from '../../shared/domain/errors';
import { logger } from '../../shared/logger';
import { clientMessage, MAX_CLIENT_MESSAGE_BYTES } from './schemas';

type Reply = { type: string; data: Record<string, unknown> };

const reply = (message: Reply): APIGatewayProxyResultV2 => ({ statusCode: 200, body: JSON.stringify(message) });
const errorReply = (code: string, message: string, details: Record<string, unknown> = {}) =>
  reply({ type: 'error', data: { code, message, details } });

/**
 * The WebSocket routes. $connect accepts, $disconnect acknowledges, and $default answers each client message
 * through the route response: `auth` checks the token like the HTTP API does. Malformed, oversized or
 * unknown messages get an error message and never an exception.
 *
 * Connection state, subscriptions and event delivery belong to the real-time channel and are not here yet:
 * `subscribe` is answered with SERVICE_UNAVAILABLE until then.
 */
export const createRealtimeHandler =
  (deps: { authenticate(token: string): Promise<Principal> }) =>
  async (event: APIGatewayProxyWebsocketEventV2): Promise<APIGatewayProxyResultV2> => {
    const { routeKey, connectionId } = event.requestContext;
    if (routeKey === '$connect' || routeKey === '$disconnect') return { statusCode: 200 };
    const raw = event.body ?? '';
    if (Buffer.byteLength(raw) > MAX_CLIENT_MESSAGE_BYTES) {
      return errorReply('VALIDATION_ERROR', `Messages may not exceed ${MAX_CLIENT_MESSAGE_BYTES} bytes`);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return errorReply('VALIDATION_ERROR', 'The message is not valid JSON');
    }
    const parsed = clientMessage.safeParse(json);
    if (!parsed.success) {
      return errorReply('VALIDATION_ERROR', 'Unknown or malformed message', {
        type: (json as { type?: unknown } | null)?.type ?? null,
        accepted_types: ['auth', 'subscribe', 'ping'],
      });
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ping':
        return reply({ type: 'pong', data: {} });
      case 'subscribe':
        return errorReply('SERVICE_UNAVAILABLE', 'Event subscriptions are not available on this channel yet');
      case 'auth':
        try {
          const principal = await deps.authenticate(message.token);
          return reply({ type: 'auth_success', data: { user_id: principal.userId, username: principal.username } });
        } catch (error) {
          if (error instanceof AppError) return errorReply('UNAUTHORIZED', error.message);
          logger.error('websocket auth failed', { connection_id: connectionId, error });
          return errorReply('INTERNAL_ERROR', 'An unexpected error occurred');
        }
    }
  };
