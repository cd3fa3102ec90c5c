/** The P server events of the WebSocket channel, each `{type, data}` with exactly the P fields. */
export type ServerEvent =
  | { type: 'ocr_progress'; data: { document_id: string; progress: number; status: string } }
  | { type: 'notification'; data: { id: string; type: string; title: string; message: string } }
  | { type: 'document_created'; data: { document_id: string; title: string; source: string | null } }
  | { type: 'document_updated'; data: { document_id: string; changes: Record<string, unknown> } }
  | { type: 'queue_status'; data: { pending: number; processing: number; completed: number } }
  | { type: 'sync_progress'; data: { source_id: string; processed: number; total: number; current_file: string } };

export type ServerEventType = ServerEvent['type'];

/** Who receives an event: one user's connections, or every authenticated connection. */
export type Audience = { userId: string } | 'everyone';

/**
 * Pushes events to connected clients. Delivery is best effort: publishing never throws into the producer
 * (a request or a job), whatever happens to the connections.
 */
export interface EventPublisher {
  publish(event: ServerEvent, audience: Audience): Promise<void>;
}

/** The publisher of a runtime without connected clients. */
export const silentEventPublisher: EventPublisher = { publish: async () => undefined };

/** Publishes and swallows any failure: an event is never worth failing the work that produced it. */
export async function emit(events: EventPublisher, event: ServerEvent, audience: Audience): Promise<void> {
  try {
    await events.publish(event, audience);
  } catch {
    // Best effort by contract; the adapter logs what went wrong.
  }
}
