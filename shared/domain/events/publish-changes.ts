import type { ChangeLedger, ChangeOutcome, ItemChange } from '../changes/ports';
import { deriveEvents, needsCompletedToday, type ChangeFacts } from './derive-events';
import { emit, type Audience, type EventHub, type ServerEvent } from './ports';
import type { ConnectionSender, SessionEndReason } from '../connections/ports';
import { endConnection } from '../connections/sessions';

/** The ledger's name for this consumer. */
export const EVENTS_CONSUMER = 'events';

export interface PublishChangesDeps {
  /** The connected clients, per workspace. */
  hub: EventHub;
  /** Sends a connection whose session ended its last message and closes it (API Gateway's @connections). */
  connectionSender: ConnectionSender;
  /** The workspace a user belongs to (a notification's item names only the user); null for a user gone. */
  workspaceOfUser(userId: string): Promise<string | null>;
  /** OCR runs completed in the workspace on a day (`YYYY-MM-DD`, UTC), as the queue status endpoint counts them. */
  completedOn(workspaceId: string, date: string): Promise<number>;
  /** Which changes were published already: a change delivered twice is pushed once. */
  ledger: ChangeLedger;
}

/**
 * Pushes the P events a batch of table changes calls for (the `events` stream consumer; see
 * {@link deriveEvents}), in the order of the changes, and ends the connections whose records were marked
 * ended (the UNAUTHORIZED error, then closed: see {@link sessionEndOf}). What each change calls for is worked
 * out first, with what its events need beyond the change (a notification's workspace, today's completions);
 * then the changes that call for something are recorded in the ledger at once and acted on, so a change
 * delivered again does nothing (at most once: publishing and closing are best effort, as everywhere). A change
 * whose reads fail stops the batch there: the changes before it are acted on, its sequence is returned, and
 * the changes from it on are delivered again. A ledger that fails has the whole batch delivered again.
 *
 * The changes of one sync job, and those of one workspace's OCR queue counters, within the batch are taken as
 * one (see {@link coalesced}): a sync writes its job once per file and every upload or OCR run moves the
 * counters, and clients want the latest state, not every step of it. This replaces the time throttle the sync
 * step kept: those events go out as often as the stream delivers batches, one per job or queue each.
 */
export async function publishChanges(deps: PublishChangesDeps, changes: ItemChange[]): Promise<ChangeOutcome> {
  const units = coalesced(changes);
  const planned: { changeId: string; act: () => Promise<void> }[] = [];
  let failedAt: string | undefined;
  for (const { change, from } of units) {
    try {
      const act = await actionOf(deps, change);
      if (act) planned.push({ changeId: change.id, act });
    } catch {
      failedAt = from;
      break;
    }
  }
  let fresh: Set<string>;
  try {
    fresh = await deps.ledger.firstDeliveries(EVENTS_CONSUMER, planned.map(({ changeId }) => changeId));
  } catch {
    return units.length ? { failedAt: units[0]!.from } : {};
  }
  // Best effort once recorded: a delivery again would find the change in the ledger and skip it anyway.
  for (const { changeId, act } of planned) if (fresh.has(changeId)) await act().catch(() => undefined);
  return failedAt === undefined ? {} : { failedAt };
}

/** The state whose changes in a batch are reported as one: a sync job, or a workspace's OCR queue counters. */
function stateOf(change: ItemChange): string | null {
  if (change.entity === 'sync_job') return `sync/${change.workspaceId}/${change.sourceId}/${change.jobId}`;
  if (change.entity === 'ocr_queue_counters') return `queue/${change.workspaceId}`;
  return null;
}

/**
 * The batch's changes, in order, with those of each coalesced state ({@link stateOf}) merged into one at the
 * place of its last: the first one's old image and the last one's new image (and id, for the ledger), so that
 * what moved anywhere in the batch is seen, and a last change that moved nothing (a lease let go) hides
 * nothing. Queue counters that moved on the way but came back to where they were (a job finished, another
 * taken) are merged with no old image, so the latest state (and today's completions) is still reported.
 * `from` is where the merged change starts: a failure there has the whole of it delivered again.
 */
export function coalesced(changes: ItemChange[]): { change: ItemChange; from: string }[] {
  const steps = new Map<string, ItemChange[]>();
  for (const change of changes) {
    const state = stateOf(change);
    if (state === null) continue;
    const seen = steps.get(state);
    if (seen) seen.push(change);
    else steps.set(state, [change]);
  }
  const units: { change: ItemChange; from: string }[] = [];
  for (const change of changes) {
    const state = stateOf(change);
    if (state === null) {
      units.push({ change, from: change.sequence });
      continue;
    }
    const all = steps.get(state)!;
    if (all.at(-1) !== change) continue;
    const first = all[0]!;
    const merged = { ...change, old: first.old } as ItemChange;
    if (merged.entity === 'ocr_queue_counters' && !needsCompletedToday(merged) && all.some(needsCompletedToday)) merged.old = null;
    units.push({ change: merged, from: first.sequence });
  }
  return units;
}

/** What a change calls for (its events, addressed, or the end of a session), or null when nothing. */
async function actionOf(deps: PublishChangesDeps, change: ItemChange): Promise<(() => Promise<void>) | null> {
  const ending = sessionEndOf(change);
  // An ended connection left open is closed by the next event published to it or its next message.
  if (ending) return () => endConnection(deps.connectionSender, ending.connectionId, ending.end);
  const facts: ChangeFacts = {};
  if (needsCompletedToday(change) && change.entity === 'ocr_queue_counters') {
    facts.completedToday = await deps.completedOn(change.workspaceId, change.at.slice(0, 10));
  }
  const addressed: { workspaceId: string; event: ServerEvent; audience: Audience }[] = [];
  for (const item of deriveEvents(change, facts)) {
    const workspace = item.workspaceId !== null ? item.workspaceId : await deps.workspaceOfUser(item.audience.userId);
    // A user deleted since has no connections left to tell.
    if (workspace) addressed.push({ workspaceId: workspace, event: item.event, audience: item.audience });
  }
  if (addressed.length === 0) return null;
  return async () => {
    for (const { workspaceId, event, audience } of addressed) await emit(deps.hub.forWorkspace(workspaceId), event, audience);
  };
}

/**
 * The connection a change ends, and why: a connection record marked ended that was not before. A record
 * removed (a disconnect, its TTL) or written again while ended ends nothing. Pure.
 */
export function sessionEndOf(change: ItemChange): { connectionId: string; end: SessionEndReason } | null {
  if (change.entity !== 'connection' || !change.new?.ended || change.old?.ended) return null;
  return { connectionId: change.connectionId, end: change.new.ended };
}
