/**
 * The steps of a workspace's erasure, in the order they run. Each is idempotent (it deletes what is left), so an
 * erasure interrupted anywhere runs its unfinished steps again after a restart and ends in the same state.
 * - `connections`: its WebSocket connections are closed (their items go with the table).
 * - `automation`: its webhooks and rules go first, so that the documents' deletions send no webhook and start
 *   no rule.
 * - `table`: every item of it (users, their tokens, locks and settings, documents, labels, sources, syncs, OCR
 *   jobs, counters) but its usage rows.
 * - `bucket`: every object under its prefixes, and every version and delete marker of them.
 * - `index`: its search index entries, tombstones and vocabulary.
 * - `sweep`: the table, bucket and index once more, for what a worker in flight wrote after its step.
 * - `workspace`: its admin count. Its workspace record stays, `deleting`, as the mark that refuses any caller
 *   still holding a token of it (a user remembered by an instance), beside the erasure record.
 */
export const ERASURE_STEPS = ['connections', 'automation', 'table', 'bucket', 'index', 'sweep', 'workspace'] as const;
export type ErasureStep = (typeof ERASURE_STEPS)[number];

/** What an erasure removed, per kind, summed over its steps (a step run again adds what it found left). */
export interface ErasureCounts {
  connections: number;
  items: number;
  objects: number;
  index_entries: number;
}

/**
 * The deletion record of a workspace: kept after the erasure, with its usage rows, for billing and audit. It
 * names the workspace and who asked, never its content.
 */
export interface Erasure {
  workspace_id: string;
  workspace_name: string;
  requested_by: { user_id: string; token_id?: string; operator: boolean };
  requested_at: string;
  status: 'erasing' | 'completed';
  steps_done: ErasureStep[];
  counts: ErasureCounts;
  completed_at?: string;
  /**
   * Where the running step's scan of the table had got to (`table` or `sweep`), saved after each page, so that a
   * resumed erasure continues there rather than reading the whole table again; cleared when the step is done.
   */
  scan?: { step: ErasureStep; positions: ScanPositions };
}

/**
 * Where one segment of a step's scan of the table had got to: the key to continue after (the adapter's, opaque
 * here; null before the first page), whether it finished, and how many items it removed so far.
 */
export interface ScanSegmentPosition {
  after: Record<string, unknown> | null;
  done: boolean;
  removed: number;
}

/** A step's scan positions, by segment. */
export type ScanPositions = Record<number, ScanSegmentPosition>;

export const NO_COUNTS: ErasureCounts = { connections: 0, items: 0, objects: 0, index_entries: 0 };
