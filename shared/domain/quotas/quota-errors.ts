import { AppError, forbidden } from '../errors';
import type { Limit, QuotaName } from './plans';

/** The refusal of what would pass a quota of the workspace's plan: 403 with the quota, its limit and its use. */
export const quotaExceeded = (quota: QuotaName, limit: Limit, used: number) =>
  forbidden(`This would pass the workspace's ${quota.replaceAll('_', ' ')} quota (${limit} on its plan, ${used} used)`, {
    reason: 'quota_exceeded',
    quota,
    limit,
    used,
  });

/** Whether an error is a {@link quotaExceeded} refusal. */
export const isQuotaExceeded = (error: unknown): error is AppError => error instanceof AppError && error.details['reason'] === 'quota_exceeded';
