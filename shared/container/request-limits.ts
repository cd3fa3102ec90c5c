import { DynamoRateLimitStore } from '../adapters/aws/dynamodb/rate-limit-store';
import type { Clock } from '../domain/clock';
import { AppError } from '../domain/errors';
import { limitRequest, type RateLimits } from '../domain/limits/limit-request';
import { checkLoginAllowed, recordLoginFailure } from '../domain/limits/login-failures';
import { RequestLimiter } from '../domain/limits/take-request';
import type { MeteredRequests, UsageMeter } from '../domain/usage/ports';
import { monthOf } from '../domain/usage/usage';
import { logger } from '../logger';
import type { AppContainer } from './app-container';
import type { ContainerParts } from './build-app-container';

/**
 * The rate limits of P over the shared DynamoDB buckets. A limiter that fails lets the request through and logs
 * why: a limit is never worth a 5xx. A refusal (an AppError) passes as it is.
 */
export function requestLimits(
  parts: ContainerParts,
  clock: Clock,
  meter: (workspaceId: string, counts: MeteredRequests) => Promise<void>,
): Pick<AppContainer, 'limits' | 'loginAttempts'> {
  const stored = new DynamoRateLimitStore(parts.db, parts.tableName);
  const limiter = new RequestLimiter(parts.decorateRateLimits?.(stored) ?? stored, clock);
  const { env } = parts;
  const policies: RateLimits = {
    user: { perMinute: env.RATE_LIMIT_PER_MINUTE, burst: env.RATE_LIMIT_BURST },
    upload: { perMinute: env.UPLOAD_RATE_LIMIT_PER_MINUTE, burst: env.UPLOAD_RATE_LIMIT_PER_MINUTE },
    anonymous: { perMinute: env.IP_RATE_LIMIT_PER_MINUTE, burst: env.IP_RATE_LIMIT_BURST },
  };
  const failOpen =
    <T>(what: string, fallback: T) =>
    (error: unknown): T => {
      if (error instanceof AppError) throw error;
      logger.warn(`rate limit: ${what} failed, letting the request through`, { error });
      return fallback;
    };
  return {
    // The usage count runs beside the limiter: a request refused by it was received and authenticated all the same.
    limits: async (origin) => {
      const [decision] = await Promise.all([
        limitRequest(limiter, policies, origin).catch(failOpen('counting the request', null)),
        origin.workspaceId ? meter(origin.workspaceId, { api_requests: 1 }) : undefined,
      ]);
      return decision;
    },
    loginAttempts: {
      check: (username) => checkLoginAllowed(limiter, username).catch(failOpen('checking failed logins', undefined)),
      failed: (username) => recordLoginFailure(limiter, username).catch(failOpen('counting a failed login', undefined)),
    },
  };
}

/**
 * Counts requests in their workspace's usage of the clock's month. Metering never fails a request: a failed
 * count is logged (the local meter keeps it and writes it with the next).
 */
export function meterRequests(meter: UsageMeter, clock: Clock): (workspaceId: string, counts: MeteredRequests) => Promise<void> {
  return (workspaceId, counts) =>
    meter.add(workspaceId, monthOf(clock.now()), counts).catch((error: unknown) => {
      logger.warn('usage: counting a request failed', { workspace_id: workspaceId, counts, error });
    });
}
