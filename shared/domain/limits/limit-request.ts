import { AppError } from '../errors';
import type { RateDecision, RatePolicy } from './rate-policy';
import type { RequestLimiter } from './take-request';

/** The P limits and their configured values (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST, ...). */
export interface RateLimits {
  /** Every authenticated request, per user. */
  user: RatePolicy;
  /** Uploads (`upload`, `bulk-upload`, `upload-url`), per user, on top of {@link RateLimits.user}. */
  upload: RatePolicy;
  /** Requests without a token (login, register, refresh), per client IP. */
  anonymous: RatePolicy;
}

/** Who makes a request, as far as limits care. */
export interface RequestOrigin {
  userId: string | null;
  /** The authenticated caller's workspace, whose usage counts the request; null or absent without a caller. */
  workspaceId?: string | null;
  sourceIp: string;
  isUpload: boolean;
}

/**
 * Counts one request against the caller's buckets: the user's (and the user's upload bucket for uploads), or
 * the client IP's when there is no user. Returns the decision to report in the X-RateLimit-* headers (the
 * tighter bucket for uploads), or null when no bucket could be read (the request goes through: fail open).
 */
export async function limitRequest(limiter: RequestLimiter, limits: RateLimits, origin: RequestOrigin): Promise<RateDecision | null> {
  if (origin.userId === null) return limiter.take(`ip#${origin.sourceIp}`, limits.anonymous);
  const general = await limiter.take(`user#${origin.userId}`, limits.user);
  if (!origin.isUpload || general?.allowed === false) return general;
  return (await limiter.take(`upload#${origin.userId}`, limits.upload)) ?? general;
}

/** The P error of a refused request; the pipeline adds the headers and Retry-After. */
export const rateLimited = (decision: RateDecision): AppError =>
  new AppError('RATE_LIMITED', `Too many requests: at most ${decision.limit} a minute; retry in ${decision.retryAfterSeconds} s`, {
    limit_per_minute: decision.limit,
    retry_after_seconds: decision.retryAfterSeconds,
  });
