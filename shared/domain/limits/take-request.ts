import type { Clock } from '../clock';
import { LOST_RACE, retryLostRaces } from '../optimistic-retry';
import type { RateLimitStore } from './ports';
import { decide, type RateDecision, type RatePolicy } from './rate-policy';

/** Buckets whose last TAT an instance remembers, so that a steady caller costs one write and no read. */
const REMEMBERED_BUCKETS = 10_000;

/**
 * Counts requests against token buckets shared by every instance (see {@link decide}). The instance remembers
 * each bucket's last TAT: TATs only grow, so a remembered one is never ahead of the stored one and a refusal it
 * implies is certain (a refused request costs no write). A write that finds another TAT (another instance moved
 * the bucket) decides again on what it found.
 */
export class RequestLimiter {
  private readonly known = new Map<string, number>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes one request from `bucket`. Resolves null when the store kept losing races: the caller lets the
   * request through (fail open), as it does when the store fails.
   */
  async take(bucket: string, policy: RatePolicy): Promise<RateDecision | null> {
    let tat = this.known.get(bucket) ?? null;
    return retryLostRaces(
      async () => {
        const { decision, nextTat } = decide(policy, tat, this.clock.now().getTime());
        if (!decision.allowed) return decision;
        const outcome = await this.store.compareAndSet(bucket, tat, nextTat, new Date(nextTat));
        if (outcome === 'ok') {
          this.remember(bucket, nextTat);
          return decision;
        }
        tat = outcome.current;
        if (tat === null) this.known.delete(bucket);
        else this.remember(bucket, tat);
        return LOST_RACE;
      },
      () => null,
    );
  }

  /** Whether `bucket` has a request left, without taking it (a read, never a write). */
  async hasRoom(bucket: string, policy: RatePolicy): Promise<RateDecision> {
    const tat = await this.store.tatOf(bucket);
    if (tat !== null) this.remember(bucket, tat);
    return decide(policy, tat, this.clock.now().getTime()).decision;
  }

  private remember(bucket: string, tat: number): void {
    this.known.delete(bucket);
    this.known.set(bucket, tat);
    if (this.known.size > REMEMBERED_BUCKETS) this.known.delete(this.known.keys().next().value!);
  }
}
