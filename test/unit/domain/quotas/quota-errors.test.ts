import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/domain/errors';
import { quotaExceeded } from '../../../../shared/domain/quotas/quota-errors';

describe('quotaExceeded', () => {
  it('is a 403 FORBIDDEN with reason quota_exceeded, the quota, its limit and its use', () => {
    // Arrange
    const quota = 'documents_stored' as const;

    // Act
    const error = quotaExceeded(quota, 100, 100);

    // Assert
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'FORBIDDEN', status: 403, details: { reason: 'quota_exceeded', quota: 'documents_stored', limit: 100, used: 100 } });
  });

  it('names the quota in words, with the limit and the use, in its message', () => {
    // Arrange
    const quota = 'ocr_pages_per_month' as const;

    // Act
    const { message } = quotaExceeded(quota, 500, 498);

    // Assert
    expect(message).toBe("This would pass the workspace's ocr pages per month quota (500 on its plan, 498 used)");
  });
});
