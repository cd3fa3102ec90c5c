import type { Audience, ConnectionRepository, ConnectionSender, EventPublisher, ServerEvent, ServerEventType } from './ports';

/** Where the publisher reports what went wrong, since it never throws. */
export type ProblemLog = (message: string, fields: Record<string, unknown>) => void;

/** What one published event did, for an operational log. */
export interface Publication {
  event: ServerEventType;
  /** The connections it was sent to. */
  targets: number;
  /** When `publish` was called: epoch milliseconds, sub-millisecond precision. */
  emittedAt: number;
  /** From the call until every send settled (sent, gone, failed or timed out). */
  durationMs: number;
}

export interface ConnectionEventPublisherDeps {
  connections: Pick<ConnectionRepository, 'listAuthenticated' | 'remove'>;
  sender: ConnectionSender;
  /** A send that takes longer is abandoned, so one slow client never holds up the producer. */
  sendTimeoutMs: number;
  log: ProblemLog;
  /** Told of each event once its sends have settled. */
  published?: (publication: Publication) => void;
}

/**
 * Publishes events to the audience's authenticated connections that want them (those that subscribed to the
 * event's type, or never subscribed). The message is serialised once and sent to every connection at once,
 * each send bounded by a timeout; connections found gone are removed. Never throws: an event is not worth
 * failing the request or job that produced it.
 */
export class ConnectionEventPublisher implements EventPublisher {
  constructor(private readonly deps: ConnectionEventPublisherDeps) {}

  async publish(event: ServerEvent, audience: Audience): Promise<void> {
    const started = performance.now();
    try {
      const connections = await this.deps.connections.listAuthenticated(audience);
      const targets = connections.filter((c) => c.subscriptions === null || c.subscriptions.includes(event.type));
      const message = JSON.stringify(event);
      await Promise.all(targets.map((connection) => this.deliver(connection.id, message, event.type)));
      this.deps.published?.({
        event: event.type,
        targets: targets.length,
        emittedAt: performance.timeOrigin + started,
        durationMs: performance.now() - started,
      });
    } catch (error) {
      this.deps.log('event not published', { event: event.type, error });
    }
  }

  private async deliver(connectionId: string, message: string, type: ServerEvent['type']): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        this.deps.sender.send(connectionId, message),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), this.deps.sendTimeoutMs);
        }),
      ]);
      if (result === 'gone') await this.deps.connections.remove(connectionId);
      if (result === 'timeout') this.deps.log('event send timed out', { event: type, connection_id: connectionId });
    } catch (error) {
      this.deps.log('event not delivered', { event: type, connection_id: connectionId, error });
    } finally {
      clearTimeout(timer);
    }
  }
}
