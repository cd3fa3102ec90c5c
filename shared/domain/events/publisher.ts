import { systemClock, type Clock } from '../clock';
import type { Audience, EventHub, EventPublisher, ServerEvent } from './ports';
import type { Connection, ConnectionRepository, ConnectionSender, ServerEventType } from '../connections/ports';
import { connectionEnd, endConnection, type ConnectionEnd } from '../connections/sessions';

/** Where the publisher reports what went wrong, since it never throws. */
export type ProblemLog = (message: string, fields: Record<string, unknown>) => void;

/** What one published event did, for an operational log. */
export interface Publication {
  event: ServerEventType;
  workspaceId: string;
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
  /** Decides which tokens have expired; the system clock by default. */
  clock?: Clock;
}

/**
 * The hub of the connected clients: `forWorkspace` gives the publisher of one workspace, whose events go to
 * that workspace's authenticated connections ('workspace') or to one user's connections in it ({userId}),
 * never to another workspace's (the listing is asked for the workspace, and what it answers is checked again).
 *
 * A publisher sends to the audience's connections that want the event (those that subscribed to the
 * event's type, or never subscribed). The message is serialised once and sent to every connection at once,
 * each send bounded by a timeout; connections found gone are removed. A connection whose session has ended
 * (logout, password change) or whose token has expired gets no event: it is told why, closed and forgotten,
 * so revocation reaches it even where the function that revoked could not close it. Never throws: an event is
 * not worth failing the request or job that produced it.
 */
export class ConnectionEventPublisher implements EventHub {
  constructor(private readonly deps: ConnectionEventPublisherDeps) {}

  forWorkspace(workspaceId: string): EventPublisher {
    return { publish: (event, audience) => this.publish(workspaceId, event, audience) };
  }

  private async publish(workspaceId: string, event: ServerEvent, audience: Audience): Promise<void> {
    const started = performance.now();
    try {
      const listed = await this.deps.connections.listAuthenticated(
        audience === 'workspace' ? { workspaceId } : { userId: audience.userId, workspaceId },
      );
      // The listing was asked for this workspace; checking again costs nothing and keeps any mistake in a
      // store from becoming a leak across workspaces.
      const connections = listed.filter((connection) => connection.workspaceId === workspaceId);
      const now = (this.deps.clock ?? systemClock).now();
      const live: Connection[] = [];
      const ending: Promise<void>[] = [];
      for (const connection of connections) {
        const end = connectionEnd(connection, now);
        if (end) ending.push(this.end(connection.id, end, event.type));
        else live.push(connection);
      }
      const targets = live.filter((c) => c.subscriptions === null || c.subscriptions.includes(event.type));
      const message = JSON.stringify(event);
      await Promise.all([...targets.map((connection) => this.deliver(connection.id, message, event.type)), ...ending]);
      this.deps.published?.({
        event: event.type,
        workspaceId,
        targets: targets.length,
        emittedAt: performance.timeOrigin + started,
        durationMs: performance.now() - started,
      });
    } catch (error) {
      this.deps.log('event not published', { event: event.type, workspace_id: workspaceId, error });
    }
  }

  /** Closes a connection that may no longer receive events, saying why, and forgets it. */
  private async end(connectionId: string, end: ConnectionEnd, type: ServerEventType): Promise<void> {
    try {
      await this.bounded(endConnection(this.deps.sender, connectionId, end));
      await this.deps.connections.remove(connectionId);
    } catch (error) {
      this.deps.log('ended connection not closed', { event: type, connection_id: connectionId, reason: end, error });
    }
  }

  /** The promise, or 'timeout' after the send timeout. */
  private async bounded<T>(promise: Promise<T>): Promise<T | 'timeout'> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        promise,
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), this.deps.sendTimeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async deliver(connectionId: string, message: string, type: ServerEvent['type']): Promise<void> {
    try {
      const result = await this.bounded(this.deps.sender.send(connectionId, message));
      if (result === 'gone') await this.deps.connections.remove(connectionId);
      if (result === 'timeout') this.deps.log('event send timed out', { event: type, connection_id: connectionId });
    } catch (error) {
      this.deps.log('event not delivered', { event: type, connection_id: connectionId, error });
    }
  }
}
