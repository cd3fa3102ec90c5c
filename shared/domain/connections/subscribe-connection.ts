import { SERVER_EVENT_TYPES, type ServerEventType, type ChannelDeps } from './ports';

/** Names a client may subscribe with: the event types, and `notifications` as SPEC.md's table spells it. */
export const EVENT_NAMES: ReadonlyMap<string, ServerEventType> = new Map<string, ServerEventType>([
  ...SERVER_EVENT_TYPES.map((type) => [type, type] as const),
  ['notifications', 'notification'],
]);

export type SubscribeResult = { ok: true; events: ServerEventType[] } | { ok: false; unknown: string[] } | { ok: false; gone: true };

/**
 * Replaces the event types a connection receives. A list naming any unknown event changes nothing and reports
 * the unknown names, so a typo never silently narrows (or empties) what the client gets.
 */
export async function subscribeConnection(
  deps: Pick<ChannelDeps, 'connections'>,
  connectionId: string,
  names: string[],
): Promise<SubscribeResult> {
  const unknown = names.filter((name) => !EVENT_NAMES.has(name));
  if (unknown.length) return { ok: false, unknown: [...new Set(unknown)] };
  const events = [...new Set(names.flatMap((name) => EVENT_NAMES.get(name) ?? []))];
  if (!(await deps.connections.subscribe(connectionId, events))) return { ok: false, gone: true };
  return { ok: true, events };
}
