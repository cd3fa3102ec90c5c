import { describe, expect, it } from 'vitest';
import { parsePlans } from '../../../../shared/domain/quotas/plans';
import { noUsage } from '../../../../shared/domain/usage/usage';
import { getWorkspace, quotaUses } from '../../../../shared/domain/workspaces/workspace-overview';
import { ManualClock } from '../../../support/builders';

const catalog = parsePlans(
  JSON.stringify({ free: { documents_stored: 100, bytes_stored: 1000, ocr_pages_per_month: 50, sources: 1, members: 3, api_tokens: 'unlimited' } }),
  'free',
);

describe('quotaUses', () => {
  it("puts each quota of the plan beside its use: storage now, this month's pages, what is held", () => {
    const usage = { ...noUsage(), documents_stored: 7, bytes_stored: 900, pages_ocred: 12 };

    const uses = quotaUses(catalog, 'free', usage, { members: 2, sources: 1, api_tokens: 5 });

    expect(uses).toEqual([
      { quota: 'documents_stored', limit: 100, used: 7 },
      { quota: 'bytes_stored', limit: 1000, used: 900 },
      { quota: 'ocr_pages_per_month', limit: 50, used: 12 },
      { quota: 'sources', limit: 1, used: 1 },
      { quota: 'members', limit: 3, used: 2 },
      { quota: 'api_tokens', limit: 'unlimited', used: 5 },
    ]);
  });
});

describe('getWorkspace', () => {
  const deps = (found: boolean) => ({
    workspaces: { findById: async () => (found ? { id: 'w', name: 'Acme', created_at: '2026-01-01T00:00:00Z', plan: 'free', status: 'active' as const } : null) },
    usage: { month: async () => ({ ...noUsage(), api_requests: 3 }) },
    plans: catalog,
    clock: new ManualClock(new Date('2026-11-29T08:00:00Z')),
    held: async () => ({ members: 2, sources: 0, api_tokens: 0 }),
  });

  it("answers the caller's workspace with this month's usage and its member count", async () => {
    const overview = await getWorkspace(deps(true), { workspaceId: 'w' });

    expect(overview).toMatchObject({ id: 'w', name: 'Acme', plan: 'free', status: 'active', member_count: 2, usage: { month: '2026-11', api_requests: 3 } });
  });

  it('answers 404 when the workspace is gone', async () => {
    await expect(getWorkspace(deps(false), { workspaceId: 'w' })).rejects.toMatchObject({ status: 404 });
  });
});
