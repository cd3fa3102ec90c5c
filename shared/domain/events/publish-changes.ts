import type { ChangeLedger, ChangeOutcome, ItemChange } from '../changes/ports';
import { deriveEvents, needsCompletedToday, type ChangeFacts } from './derive-events';
import { emit, type Audience, type EventHub, type ServerEvent } from './ports';

/** The ledger's name for this consumer. */
export const EVENTS_CONSUMER = 'events';

export interface PublishChangesDeps {
  /** The connected clients, per workspace. */
  hub: EventHub;
  /** The workspace a user belongs to (a notification's item names only the user); null for a user gone. */
  workspaceOfUser(userId: string): Promise<string | null>;
  /** OCR runs completed in the workspace on a day (`YYYY-MM-DD`, UTC), as the queue status endpoint counts them. */
  completedOn(workspaceId: string, date: string): Promise<number>;
  /** Which changes were published already: a change delivered twice is pushed once. */
  ledger: ChangeLedger;
}

/**
 * Pushes the P events a batch of table changes calls for (the `events` stream consumer; see
 * {@link deriveEvents}), in the order of the changes. What an event needs beyond its change (a notification's
 * workspace, today's completions) is read first; then the change is recorded in the ledger and its events are
 * published, so a change delivered again publishes nothing (at most once: publishing is best effort, as
 * everywhere). A change whose reads fail stops the batch there, untouched, and its sequence is returned:
 * the changes from it on are delivered again, those before it are not.
 */
export async function publishChanges(deps: PublishChangesDeps, changes: ItemChange[]): Promise<ChangeOutcome> {
  for (const change of changes) {
    try {
      await publishChange(deps, change);
    } catch {
      return { failedAt: change.sequence };
    }
  }
  return {};
}

async function publishChange(deps: PublishChangesDeps, change: ItemChange): Promise<void> {
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
