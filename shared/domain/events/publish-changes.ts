import type { ChangeLedger, ChangeOutcome, ItemChange } from '../changes/ports';
import { deriveEvents, needsCompletedToday, type ChangeFacts } from './derive-events';
import { emit, type Audience, type ConnectionSender, type EventHub, type ServerEvent } from './ports';
import { endConnection, sessionEndOf } from './sessions';

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
 * ended (the UNAUTHORIZED error, then closed: see {@link sessionEndOf}). What an event needs beyond its change
 * (a notification's workspace, today's completions) is read first; then the change is recorded in the ledger
 * and acted on, so a change delivered again does nothing (at most once: publishing and closing are best
 * effort, as everywhere). A change whose reads fail stops the batch there, untouched, and its sequence is
 * returned: the changes from it on are delivered again, those before it are not.
 *
 * The changes of one sync job, and those of one workspace's OCR queue counters, within the batch are taken as
 * one (see {@link coalesced}): a sync writes its job once per file and every upload or OCR run moves the
 * counters, and clients want the latest state, not every step of it. This replaces the time throttle the sync
 * step kept: those events go out as often as the stream delivers batches, one per job or queue each.
 */
export async function publishChanges(deps: PublishChangesDeps, changes: ItemChange[]): Promise<ChangeOutcome> {
  for (const { change, from } of coalesced(changes)) {
    try {
      await publishChange(deps, change);
    } catch {
      return { failedAt: from };
    }
  }
  return {};
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
    if (state !== null) steps.set(state, [...(steps.get(state) ?? []), change]);
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

async function publishChange(deps: PublishChangesDeps, change: ItemChange): Promise<void> {
  const ending = sessionEndOf(change);
  if (ending) {
    if (!(await deps.ledger.firstDelivery(EVENTS_CONSUMER, change.id))) return;
    // Best effort, as when the use case closed it: an ended connection left open is closed by the next event
    // published to it or its next message.
    await endConnection(deps.connectionSender, ending.connectionId, ending.end).catch(() => undefined);
    return;
  }
  const facts: ChangeFacts = {};
  if (needsCompletedToday(change) && change.entity === 'ocr_queue_counters') {
    facts.completedToday = await deps.completedOn(change.workspaceId, change.at.slice(0, 10));
  }
  const derived = deriveEvents(change, facts);
  if (derived.length === 0) return;
  const addressed: { workspaceId: string; event: ServerEvent; audience: Audience }[] = [];
  for (const item of derived) {
    const workspace = item.workspaceId !== null ? item.workspaceId : await deps.workspaceOfUser(item.audience.userId);
    // A user deleted since has no connections left to tell.
    if (workspace) addressed.push({ workspaceId: workspace, event: item.event, audience: item.audience });
  }
  if (!(await deps.ledger.firstDelivery(EVENTS_CONSUMER, change.id))) return;
  for (const { workspaceId, event, audience } of addressed) await emit(deps.hub.forWorkspace(workspaceId), event, audience);
}
