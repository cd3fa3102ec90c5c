import type { MeteredRequests, UsageMeter } from '../../domain/usage/ports';
import { logger } from '../../observability/logger';

/**
 * How long counts gather before they are written: the stored counters lag the requests by about this much, and a
 * steady stream of requests costs DynamoDB Local one write per workspace and month this often, not one a request.
 */
export const USAGE_WRITE_BEHIND_MS = 200;

type Counts = Required<MeteredRequests>;

/**
 * The usage meter of the local runtime: a request's count is added in memory at once (no write on the request's
 * path, like the rate limits' buckets) and written behind it, summed per workspace and month, with ADD. Counts
 * are only added, so nothing read back is needed and nothing is lost to a concurrent writer. A failed write
 * keeps its counts in memory for the next; `flush` writes whatever is left, which the runtime awaits on a clean
 * stop. A crash loses at most the last {@link USAGE_WRITE_BEHIND_MS} of request counts.
 */
export class WriteBehindUsageMeter implements UsageMeter {
  /** Counts not yet written, by workspace and month. */
  private pending = new Map<string, { workspaceId: string; month: string; counts: Counts }>();
  private writing: Promise<void> | null = null;

  constructor(
    private readonly stored: UsageMeter,
    private readonly delayMs = USAGE_WRITE_BEHIND_MS,
  ) {}

  add(workspaceId: string, month: string, counts: MeteredRequests): Promise<void> {
    this.keep(workspaceId, month, counts);
    this.writing ??= this.writeBehind();
    return Promise.resolve();
  }

  /** Resolves once every count taken so far was written, or failed to be and is logged (the runtime's stop). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    await this.writePending();
  }

  private keep(workspaceId: string, month: string, counts: MeteredRequests): void {
    const key = `${workspaceId}#${month}`;
    const entry = this.pending.get(key) ?? { workspaceId, month, counts: { api_requests: 0, search_requests: 0 } };
    entry.counts.api_requests += counts.api_requests ?? 0;
    entry.counts.search_requests += counts.search_requests ?? 0;
    this.pending.set(key, entry);
  }

  private async writeBehind(): Promise<void> {
    try {
      // Until a round finds nothing new; a failed round stops (the next count or the flush tries again).
      while (this.pending.size) {
        await new Promise((resolve) => setTimeout(resolve, this.delayMs));
        if (!(await this.writePending())) break;
      }
    } finally {
      this.writing = null;
    }
  }

  /** Writes what is pending; false when a write failed (its counts are kept for the next try). */
  private async writePending(): Promise<boolean> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const outcomes = await Promise.allSettled(batch.map(({ workspaceId, month, counts }) => this.stored.add(workspaceId, month, counts)));
    let written = true;
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') return;
      const { workspaceId, month, counts } = batch[i]!;
      this.keep(workspaceId, month, counts);
      written = false;
      logger.warn('usage: writing request counts failed; they are kept in memory', { workspace_id: workspaceId, month, error: outcome.reason });
    });
    return written;
  }
}
