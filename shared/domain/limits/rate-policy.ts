/** A token bucket: `burst` requests at once, refilled at `perMinute`. */
export interface RatePolicy {
  perMinute: number;
  burst: number;
}

/** What one request learnt of its bucket, for the X-RateLimit-* headers and the 429. */
export interface RateDecision {
  allowed: boolean;
  /** The policy's requests per minute (X-RateLimit-Limit). */
  limit: number;
  /** Requests that could still be made at once after this one (X-RateLimit-Remaining). */
  remaining: number;
  /** When the bucket is full again, epoch seconds (X-RateLimit-Reset). */
  resetAt: number;
  /** Seconds until the next request is allowed; 0 when this one was (Retry-After on a 429). */
  retryAfterSeconds: number;
}

/** Milliseconds one request costs: the interval at which the bucket refills by one. */
export const emissionIntervalMs = (policy: RatePolicy): number => 60_000 / policy.perMinute;

/**
 * The generic cell rate algorithm: the bucket is its theoretical arrival time `tat`, the moment it would be full
 * again. A request moves it to max(tat, now) + T and is allowed while that stays within `burst` intervals of now.
 * Returns the decision and the TAT to store (unchanged when refused: a refused request costs nothing).
 */
export function decide(policy: RatePolicy, tat: number | null, now: number): { decision: RateDecision; nextTat: number } {
  const interval = emissionIntervalMs(policy);
  const window = policy.burst * interval;
  const moved = Math.max(tat ?? now, now) + interval;
  const allowed = moved - now <= window;
  const kept = allowed ? moved : Math.max(tat ?? now, now);
  return {
    nextTat: kept,
    decision: {
      allowed,
      limit: policy.perMinute,
      remaining: Math.max(0, Math.floor((window - (kept - now)) / interval)),
      resetAt: Math.ceil(kept / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((moved - now - window) / 1000)),
    },
  };
}
