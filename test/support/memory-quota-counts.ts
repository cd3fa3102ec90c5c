import type { CountedQuotaDeps } from '../../shared/domain/quotas/counted-quota';
import { UNLIMITED_CATALOG, type PlanCatalog } from '../../shared/domain/quotas/plans';
import type { QuotaCounter, QuotaCounts, TakeOutcome } from '../../shared/domain/quotas/ports';
import type { Limit } from '../../shared/domain/quotas/plans';

/** Quota counts in memory, for use-case tests: the same rules as the DynamoDB counts (started from `existing`). */
export class MemoryQuotaCounts implements QuotaCounts {
  readonly counts = new Map<string, number>();

  async take(workspaceId: string, counter: QuotaCounter, amount: number, limit: Limit, existing: () => Promise<number>): Promise<TakeOutcome> {
    const key = `${workspaceId}/${counter}`;
    const used = this.counts.get(key) ?? (await existing());
    if (limit !== 'unlimited' && used + amount > limit) {
      this.counts.set(key, used);
      return { taken: false, used };
    }
    this.counts.set(key, used + amount);
    return { taken: true };
  }

  async give(workspaceId: string, counter: QuotaCounter, amount: number, existing: () => Promise<number>): Promise<void> {
    const key = `${workspaceId}/${counter}`;
    this.counts.set(key, (this.counts.get(key) ?? (await existing())) - amount);
  }
}

/** What a use case needs to count against quotas: here every workspace is on `plan` of `plans` (default: no limits). */
export const quotaDeps = (plans: PlanCatalog = UNLIMITED_CATALOG, plan = plans.defaultPlan): CountedQuotaDeps & { quotaCounts: MemoryQuotaCounts } => ({
  quotaCounts: new MemoryQuotaCounts(),
  plans,
  workspaceStatus: { plan: async () => plan },
});
