import type { Limit } from './plans';

/** The quotas counted by number of things a workspace holds, one count per workspace and quota. */
export type CountedQuota = 'members' | 'sources' | 'api_tokens';

/** A count a quota bounds: what a workspace holds, or the OCR pages of one month (`ocr_pages#YYYY-MM`). */
export type QuotaCounter = CountedQuota | `ocr_pages#${string}`;

/** What a take answers: taken, or refused with the count as it stands. */
export type TakeOutcome = { taken: true } | { taken: false; used: number };

/**
 * Exact counts of the members, sources and API tokens of each workspace and of its OCR pages per month, bounded
 * by a limit atomically (a conditional add), so that concurrent takes never end above it. A count not yet kept
 * for a workspace is started from `existing()` (what a listing or the usage finds) the first time it is needed.
 */
export interface QuotaCounts {
  /** Adds `amount` unless the count would pass `limit`. */
  take(workspaceId: string, counter: QuotaCounter, amount: number, limit: Limit, existing: () => Promise<number>): Promise<TakeOutcome>;
  /** Takes `amount` off: the things were deleted, or what was taken for them was not used. */
  give(workspaceId: string, counter: QuotaCounter, amount: number, existing: () => Promise<number>): Promise<void>;
}
