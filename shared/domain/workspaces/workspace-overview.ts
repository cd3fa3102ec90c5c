import type { Clock } from '../clock';
import { notFound } from '../errors';
import { planOf, QUOTAS, type Limit, type PlanCatalog, type QuotaName } from '../quotas/plans';
import type { UsageRepository } from '../usage/ports';
import { monthOf, type UsageCounters } from '../usage/usage';
import type { WorkspaceRepository } from './ports';
import type { Workspace, WorkspaceStatus } from './workspace';

/** How many members, sources and API tokens a workspace holds now. */
export interface HeldCounts {
  members: number;
  sources: number;
  api_tokens: number;
}

export interface WorkspaceOverviewDeps {
  workspaces: Pick<WorkspaceRepository, 'findById'>;
  usage: UsageRepository;
  plans: PlanCatalog;
  clock: Clock;
  /** Counts what the workspace holds (its members, sources, API tokens). */
  held(workspaceId: string): Promise<HeldCounts>;
}

/** One quota of the workspace's plan beside its use. */
export interface QuotaUse {
  quota: QuotaName;
  limit: Limit;
  used: number;
}

/** `GET /api/workspace`'s answer, and each row of the operator's list. */
export interface WorkspaceOverview {
  id: string;
  name: string;
  plan: string;
  status: WorkspaceStatus;
  created_at: string;
  member_count: number;
  /** The current month's counters (UTC). */
  usage: UsageCounters & { month: string };
  quotas: QuotaUse[];
}

/** The quotas of a plan with their use: storage now, OCR pages this month, what is held now. */
export function quotaUses(catalog: PlanCatalog, plan: string, usage: UsageCounters, held: HeldCounts): QuotaUse[] {
  const limits = planOf(catalog, plan);
  const used: Record<QuotaName, number> = {
    documents_stored: usage.documents_stored,
    bytes_stored: usage.bytes_stored,
    ocr_pages_per_month: usage.pages_ocred,
    sources: held.sources,
    members: held.members,
    api_tokens: held.api_tokens,
  };
  return QUOTAS.map((quota) => ({ quota, limit: limits[quota], used: used[quota] }));
}

/** A workspace with this month's usage and its quotas. */
export async function overviewOf(deps: WorkspaceOverviewDeps, workspace: Workspace): Promise<WorkspaceOverview> {
  const month = monthOf(deps.clock.now());
  const [usage, held] = await Promise.all([deps.usage.month(workspace.id, month), deps.held(workspace.id)]);
  return {
    id: workspace.id,
    name: workspace.name,
    plan: workspace.plan,
    status: workspace.status,
    created_at: workspace.created_at,
    member_count: held.members,
    usage: { month, ...usage },
    quotas: quotaUses(deps.plans, workspace.plan, usage, held),
  };
}

/** The caller's workspace (`GET /api/workspace`): every member may read it. */
export async function getWorkspace(deps: WorkspaceOverviewDeps, caller: { workspaceId: string }): Promise<WorkspaceOverview> {
  const workspace = await deps.workspaces.findById(caller.workspaceId);
  if (!workspace) throw notFound('workspace', caller.workspaceId);
  return overviewOf(deps, workspace);
}
