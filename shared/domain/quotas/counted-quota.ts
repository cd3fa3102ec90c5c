import { planOf, type PlanCatalog } from './plans';
import type { CountedQuota, QuotaCounts } from './ports';
import { quotaExceeded } from './quota-errors';

export interface CountedQuotaDeps {
  quotaCounts: QuotaCounts;
  plans: PlanCatalog;
  /** The workspace's plan's name (the workspace status reader); null for a workspace that is not found. */
  workspaceStatus: { plan(workspaceId: string): Promise<string | null> };
}

/** The workspace's limit of a counted quota, from its plan. */
async function limitOf(deps: CountedQuotaDeps, workspaceId: string, quota: CountedQuota) {
  return planOf(deps.plans, (await deps.workspaceStatus.plan(workspaceId)) ?? deps.plans.defaultPlan)[quota];
}

/**
 * Creates one more member, source or API token of the workspace within its plan: the count is taken first (403
 * `quota_exceeded` at the limit), then `create` runs; a create that fails gives the count back. A crash between
 * the two leaves the count one high (never low), which only ever refuses early.
 */
export async function createCounted<T>(
  deps: CountedQuotaDeps,
  workspaceId: string,
  quota: CountedQuota,
  existing: () => Promise<number>,
  create: () => Promise<T>,
): Promise<T> {
  const limit = await limitOf(deps, workspaceId, quota);
  const outcome = await deps.quotaCounts.take(workspaceId, quota, 1, limit, existing);
  if (!outcome.taken) throw quotaExceeded(quota, limit, outcome.used);
  try {
    return await create();
  } catch (error) {
    await deps.quotaCounts.give(workspaceId, quota, 1, existing);
    throw error;
  }
}

/** Gives the count of a deleted member, source or API token back (after the delete itself). */
export async function releaseCounted(deps: Pick<CountedQuotaDeps, 'quotaCounts'>, workspaceId: string, quota: CountedQuota, existing: () => Promise<number>): Promise<void> {
  await deps.quotaCounts.give(workspaceId, quota, 1, existing);
}
