import { describe, expect, it } from 'vitest';
import { takeOcrPages } from '../../../../shared/domain/quotas/ocr-pages';
import { parsePlans } from '../../../../shared/domain/quotas/plans';
import { noUsage } from '../../../../shared/domain/usage/usage';
import { quotaDeps } from '../../../support/memory-quota-counts';

const catalog = parsePlans(
  JSON.stringify({ small: { documents_stored: 'unlimited', bytes_stored: 'unlimited', ocr_pages_per_month: 10, sources: 'unlimited', members: 'unlimited', api_tokens: 'unlimited' } }),
  'small',
);
/** The month's billed pages so far: where the month's count starts. */
const deps = (billed: number) => ({ ...quotaDeps(catalog), usage: { month: async () => ({ ...noUsage(), pages_ocred: billed }) } });

describe('takeOcrPages', () => {
  it("takes a run's pages that fit the month, counting from the pages already billed", async () => {
    const quota = deps(6);

    const taken = await takeOcrPages(quota, 'w', '2026-11', 4);

    expect(taken.taken).toBe(true);
    expect(quota.quotaCounts.counts.get('w/ocr_pages#2026-11')).toBe(10);
  });

  it('refuses a run that would pass the month, with the limit and the use', async () => {
    const taken = await takeOcrPages(deps(8), 'w', '2026-11', 3);

    expect(taken).toEqual({ taken: false, limit: 10, used: 8 });
  });

  it('gives the pages back when the run is not stored after all', async () => {
    const quota = deps(0);
    const taken = await takeOcrPages(quota, 'w', '2026-11', 10);

    if (taken.taken) await taken.give();
    const again = await takeOcrPages(quota, 'w', '2026-11', 10);

    expect(again.taken).toBe(true);
  });

  it('counts each month apart', async () => {
    const quota = deps(0);
    await takeOcrPages(quota, 'w', '2026-11', 10);

    const next = await takeOcrPages(quota, 'w', '2026-12', 10);

    expect(next.taken).toBe(true);
  });
});
