import type { ServerEventType } from '../connections/ports';

/** The data of each P server event, by its type. */
export interface ServerEventData {
  ocr_progress: { document_id: string; progress: number; status: string };
  notification: { id: string; type: string; title: string; message: string };
  /** `source`: the id of the source the document came from, or `upload`; never null (see deriveEvents). */
  document_created: { document_id: string; title: string; source: string };
  document_updated: { document_id: string; changes: Record<string, unknown> };
  queue_status: { pending: number; processing: number; completed: number };
  sync_progress: { source_id: string; processed: number; total: number; current_file: string };
  export_progress: { export_id: string; status: string; progress: number; documents_done: number; documents_total: number };
}

/**
 * The P server events of the WebSocket channel, each `{type, data}` with exactly the P fields: one per type a
 * client may subscribe to (SERVER_EVENT_TYPES), so a type without its data does not compile.
 */
export type ServerEvent = { [T in ServerEventType]: { type: T; data: ServerEventData[T] } }[ServerEventType];

/**
 * Who receives an event of a workspace's publisher: one user's connections (a notification), or every
 * authenticated connection of the workspace. Neither ever reaches a connection of another workspace.
 */
export type Audience = { userId: string } | 'workspace';

/**
 * Pushes one workspace's events to connected clients. Delivery is best effort: publishing never throws into
 * the producer (a request or a job), whatever happens to the connections.
 */
export interface EventPublisher {
  publish(event: ServerEvent, audience: Audience): Promise<void>;
}

/**
 * Hands out publishers bound to one workspace, so that a use case (scoped to the caller's workspace) can only
 * publish to that workspace's connections: no publish call takes a workspace id.
 */
export interface EventHub {
  forWorkspace(workspaceId: string): EventPublisher;
}

/** The publisher of a runtime without connected clients. */
export const silentEventPublisher: EventPublisher = { publish: async () => undefined };

/** The hub of a runtime without connected clients. */
export const silentEventHub: EventHub = { forWorkspace: () => silentEventPublisher };

/** Publishes and swallows any failure: an event is never worth failing the work that produced it. */
export async function emit(events: EventPublisher, event: ServerEvent, audience: Audience): Promise<void> {
  try {
    await events.publish(event, audience);
  } catch {
    // Best effort by contract; the adapter logs what went wrong.
  }
}
