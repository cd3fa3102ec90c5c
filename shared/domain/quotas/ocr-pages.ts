import { planOf, type Limit, type PlanCatalog } from './plans';
import type { QuotaCounts } from './ports';

/** What bounds a workspace's OCR pages per month: its plan, and the month's count. */
export interface OcrPageQuotaDeps {
  quotaCounts: QuotaCounts;
  plans: PlanCatalog;
  workspaceStatus: { plan(workspaceId: string): Promise<string | null> };
  /** The month's pages counted by the usage (where the month's count starts, the first time it is needed). */
  usage: { month(workspaceId: string, month: string): Promise<{ pages_ocred: number }> };
}

/** Whether a run's pages fit: taken (give them back if the run is not stored after all), or refused with why. */
export type PageTake = { taken: true; give(): Promise<void> } | { taken: false; limit: Limit; used: number };

/**
 * Takes a completed run's pages (those billed: every page read, blank ones apart) from the workspace's month
 * before the run is stored; a run that would pass `ocr_pages_per_month` is refused. Exact under concurrency: the
 * count moves by a conditional add.
 */
export async function takeOcrPages(deps: OcrPageQuotaDeps, workspaceId: string, month: string, pages: number): Promise<PageTake> {
  const limit = planOf(deps.plans, (await deps.workspaceStatus.plan(workspaceId)) ?? deps.plans.defaultPlan).ocr_pages_per_month;
  const counter = `ocr_pages#${month}` as const;
  const existing = async () => (await deps.usage.month(workspaceId, month)).pages_ocred;
  if (pages === 0) return { taken: true, give: async () => undefined };
  const outcome = await deps.quotaCounts.take(workspaceId, counter, pages, limit, existing);
  if (!outcome.taken) return { taken: false, limit, used: outcome.used };
  return { taken: true, give: () => deps.quotaCounts.give(workspaceId, counter, pages, existing) };
}
