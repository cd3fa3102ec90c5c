import type { RateLimitStore } from '../../domain/limits/ports';
import { logger } from '../../observability/logger';

/**
 * How long a bucket's new value waits before it is written, gathering the requests that follow: a steady caller
 * then costs DynamoDB Local a few writes a second, not one per request, and a crash loses at most this much.
 */
const WRITE_BEHIND_DELAY_MS = 200;

/** The DynamoDB store's writes this decorator needs: raise a bucket's TAT, never lower it. */
export interface RaisableRateLimitStore extends RateLimitStore {
  raise(bucket: string, tat: number, expiresAt: Date): Promise<void>;
}

/**
 * The rate-limit store of the local runtime, the only writer of its buckets: the buckets live in memory, read
 * once from DynamoDB Local (after a restart), and each change is written behind the request, the latest value
 * of a bucket only, gathered over WRITE_BEHIND_DELAY_MS. A DynamoDB Local write goes to disk; awaited on every
 * request it would be most of a request's time (docs/performance.md, rate limiter). What is lost to a crash is at
 * most the writes in flight. The cloud, where many instances write, compares and sets in DynamoDB instead.
 */
export class WriteBehindRateLimitStore implements RateLimitStore {
  private readonly tats = new Map<string, number>();
  /** Buckets with a value not yet written, and the write in flight of each. */
  private readonly dirty = new Map<string, { tat: number; expiresAt: Date }>();
  private readonly writing = new Map<string, Promise<void>>();

  constructor(private readonly stored: RaisableRateLimitStore) {}

  async compareAndSet(bucket: string, expected: number | null, next: number, expiresAt: Date): Promise<'ok' | { current: number | null }> {
    const current = await this.tatOf(bucket);
    if (current !== expected) return { current };
    this.tats.set(bucket, next);
    this.dirty.set(bucket, { tat: next, expiresAt });
    if (!this.writing.has(bucket)) this.writing.set(bucket, this.writeBehind(bucket));
    return 'ok';
  }

  async tatOf(bucket: string): Promise<number | null> {
    if (this.tats.has(bucket)) return this.tats.get(bucket)!;
    const stored = await this.stored.tatOf(bucket);
    // Another request of this process may have moved the bucket while this one read it: memory wins.
    if (!this.tats.has(bucket) && stored !== null) this.tats.set(bucket, stored);
    return this.tats.get(bucket) ?? null;
  }

  /** Resolves once every value taken so far is written (the runtime waits for it before it stops). */
  async flush(): Promise<void> {
    while (this.writing.size) await Promise.allSettled([...this.writing.values()]);
  }

  private async writeBehind(bucket: string): Promise<void> {
    try {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, WRITE_BEHIND_DELAY_MS));
        const pending = this.dirty.get(bucket);
        if (!pending) break;
        this.dirty.delete(bucket);
        await this.stored.raise(bucket, pending.tat, pending.expiresAt).catch((error: unknown) => {
          logger.warn('rate limit: writing a bucket failed; it is kept in memory', { bucket, error });
        });
      }
    } finally {
      this.writing.delete(bucket);
      // A bucket is remembered until it would be full again: then it is worth nothing.
      this.forgetFullBuckets();
    }
  }

  private forgetFullBuckets(): void {
    if (this.tats.size < 10_000) return;
    const now = Date.now();
    for (const [bucket, tat] of this.tats) if (tat < now && !this.dirty.has(bucket)) this.tats.delete(bucket);
  }
}
