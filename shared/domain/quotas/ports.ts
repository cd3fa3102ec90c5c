import type { Limit } from './plans';

/** The quotas counted by number of things a workspace holds, one count per workspace and quota. */
export type CountedQuota = 'members' | 'sources' | 'api_tokens';

/** What a take answers: taken, or refused with the count as it stands. */
export type TakeOutcome = { taken: true } | { taken: false; used: number };

/**
 * Exact counts of the members, sources and API tokens of each workspace, bounded by a limit atomically (a
 * conditional add), so that concurrent creates never end above it. A count not yet kept for a workspace is
 * started from `existing()` (what a listing finds) the first time it is needed.
 */
export interface QuotaCounts {
  /** Adds one unless the count has reached `limit`. */
  take(workspaceId: string, quota: CountedQuota, limit: Limit, existing: () => Promise<number>): Promise<TakeOutcome>;
  /** Takes one off: the thing was deleted, or its create failed after the take. */
  give(workspaceId: string, quota: CountedQuota, existing: () => Promise<number>): Promise<void>;
}
