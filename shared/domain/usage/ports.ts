import type { UsageCounters } from './usage';

/** The counters of a month that are counted per request rather than moved with a stored change. */
export interface MeteredRequests {
  api_requests?: number;
  search_requests?: number;
}

/** Reads the usage counters (the stores move them in the transactions of the changes they count). */
export interface UsageRepository {
  /**
   * The workspace's counters for `month` (`YYYY-MM`): zeros for a month without use; documents and bytes stored
   * as at the month's end (now, for the current or a future month).
   */
  month(workspaceId: string, month: string): Promise<UsageCounters>;
}

/**
 * Counts requests of a workspace in a month. Adds only (never sets), so that concurrent callers and instances
 * never lose each other's counts. Implementations may write behind (the local runtime does) but must have
 * written every count taken once `flush` resolves.
 */
export interface UsageMeter {
  add(workspaceId: string, month: string, counts: MeteredRequests): Promise<void>;
}

/** A workspace's meter as its use cases get it: the month is the clock's, a failure is logged and swallowed. */
export interface WorkspaceUsageMeter {
  count(counts: MeteredRequests): Promise<void>;
}
