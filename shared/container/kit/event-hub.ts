import type { Clock } from '../../domain/clock';
import type { ConnectionRepository, ConnectionSender } from '../../domain/connections/ports';
import type { EventHub } from '../../domain/events/ports';
import { ConnectionEventPublisher } from '../../domain/events/publisher';
import { logger } from '../../observability/logger';

/** One send to a connection may take this long before the publisher stops waiting for it. */
export const EVENT_SEND_TIMEOUT_MS = 3000;

/** Real-time events to the WebSocket clients, per workspace, over the connections and the sender. */
export const connectionEventHub = (connections: ConnectionRepository, sender: ConnectionSender, clock: Clock): EventHub =>
  new ConnectionEventPublisher({
    connections,
    sender,
    sendTimeoutMs: EVENT_SEND_TIMEOUT_MS,
    // The same clock as the tokens: whether a connection's token has expired is judged by it.
    clock,
    log: (message, fields) => logger.warn(message, fields),
    published: ({ event, targets, emittedAt, durationMs }) =>
      logger.debug('event published', {
        event,
        targets,
        emitted_at: Math.round(emittedAt * 1000) / 1000,
        duration_ms: Math.round(durationMs * 10) / 10,
      }),
  });
