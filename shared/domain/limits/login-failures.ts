import type { RateDecision, RatePolicy } from './rate-policy';
import type { RequestLimiter } from './take-request';
import { rateLimited } from './limit-request';

/**
 * Failed logins per username: `burst` failures at once, then one more every 60/perMinute seconds. A guesser
 * is slowed to that rate, the real user waits at most one interval (30 s by default) and is never locked out.
 */
export const LOGIN_FAILURES: RatePolicy = { perMinute: 2, burst: 5 };

const bucketOf = (username: string): string => `login#${username.toLowerCase()}`;

/**
 * Refuses (429 RATE_LIMITED) a login for `username` while its failures are used up, before any password is
 * checked, so that a refused guess learns nothing.
 */
export async function checkLoginAllowed(limiter: RequestLimiter, username: string): Promise<void> {
  const decision: RateDecision = await limiter.hasRoom(bucketOf(username), LOGIN_FAILURES);
  if (!decision.allowed) throw rateLimited(decision);
}

/** Counts a failed login for `username`. */
export async function recordLoginFailure(limiter: RequestLimiter, username: string): Promise<void> {
  await limiter.take(bucketOf(username), LOGIN_FAILURES);
}
