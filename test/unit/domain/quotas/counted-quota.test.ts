import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../../shared/domain/errors';
import { createCounted, releaseCounted } from '../../../../shared/domain/quotas/counted-quota';
import { parsePlans } from '../../../../shared/domain/quotas/plans';
import { quotaDeps } from '../../../support/memory-quota-counts';

const catalog = parsePlans(
  JSON.stringify({ small: { documents_stored: 'unlimited', bytes_stored: 'unlimited', ocr_pages_per_month: 'unlimited', sources: 2, members: 'unlimited', api_tokens: 'unlimited' } }),
  'small',
);
const existing = (n: number) => async () => n;

describe('createCounted', () => {
  it('creates while the count is below the limit, starting the count from what exists', async () => {
    const deps = quotaDeps(catalog);

    const created = await createCounted(deps, 'w', 'sources', existing(1), async () => 'second');

    expect(created).toBe('second');
    expect(deps.quotaCounts.counts.get('w/sources')).toBe(2);
  });

  it('refuses at the limit with 403 quota_exceeded naming the quota, its limit and its use, and creates nothing', async () => {
    const deps = quotaDeps(catalog);
    let ran = false;

    const refusal = await createCounted(deps, 'w', 'sources', existing(2), async () => (ran = true)).catch((error: unknown) => error as AppError);

    expect(refusal).toMatchObject({ status: 403, details: { reason: 'quota_exceeded', quota: 'sources', limit: 2, used: 2 } });
    expect(ran).toBe(false);
  });

  it('gives the count back when the create fails', async () => {
    const deps = quotaDeps(catalog);

    await createCounted(deps, 'w', 'sources', existing(0), () => Promise.reject(new Error('remote folder unreadable'))).catch(() => undefined);

    expect(deps.quotaCounts.counts.get('w/sources')).toBe(0);
  });
});

describe('releaseCounted', () => {
  it('frees one for the next create', async () => {
    const deps = quotaDeps(catalog);
    await createCounted(deps, 'w', 'sources', existing(1), async () => undefined);

    await releaseCounted(deps, 'w', 'sources', existing(2));
    const again = await createCounted(deps, 'w', 'sources', existing(1), async () => 'again');

    expect(again).toBe('again');
  });
});
