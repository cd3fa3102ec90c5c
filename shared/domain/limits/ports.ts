/**
 * Where the rate limiter keeps one number per bucket: its theoretical arrival time (TAT, epoch ms) of the
 * generic cell rate algorithm, the token bucket expressed as a single timestamp. Shared by every instance, so a
 * limit holds across Lambdas and across restarts of the local runtime.
 */
export interface RateLimitStore {
  /**
   * Sets the bucket's TAT to `next` if it is still `expected` (null: the bucket has no item yet), and keeps the
   * item until `expiresAt` (after which the bucket is full anyway). One conditional write.
   * @returns 'ok', or the TAT found instead (null when there is none), so the caller can decide again.
   */
  compareAndSet(bucket: string, expected: number | null, next: number, expiresAt: Date): Promise<'ok' | { current: number | null }>;

  /** The bucket's TAT as stored (strongly consistent), or null when it has none. */
  tatOf(bucket: string): Promise<number | null>;
}

/**
 * Slows password guessing per username: `check` refuses (429 RATE_LIMITED) a name whose failures are used up,
 * `failed` counts one. Both let the login through when the limiter itself fails.
 */
export interface LoginAttemptGuard {
  check(username: string): Promise<void>;
  failed(username: string): Promise<void>;
}
