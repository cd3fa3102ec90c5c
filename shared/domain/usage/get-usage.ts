import type { Clock } from '../clock';
import type { UsageRepository } from './ports';
import { monthOf, type WorkspaceUsage } from './usage';

export interface UsageDeps {
  usage: UsageRepository;
  /** The workspaces (their names), as the workspace repository reads them; structural, so usage imports no area above it. */
  workspaces: {
    findById(id: string): Promise<{ name: string } | null>;
    list(): Promise<{ id: string; name: string }[]>;
  };
  clock: Clock;
}

/** Every workspace's usage in a month, as the operator's view and the billing CSV read it. */
export interface UsageReport {
  month: string;
  workspaces: WorkspaceUsage[];
}

/** Workspaces whose counters are read at once: the operator's view reads one query per workspace. */
const READS_IN_FLIGHT = 16;

/**
 * The caller's workspace's usage in `month` (default: the current month, UTC). Admins only: the route requires
 * the role; the workspace is the caller's, never one the request names.
 */
export async function workspaceUsage(deps: UsageDeps, caller: { workspaceId: string }, month?: string): Promise<WorkspaceUsage> {
  const wanted = month ?? monthOf(deps.clock.now());
  const [workspace, counters] = await Promise.all([deps.workspaces.findById(caller.workspaceId), deps.usage.month(caller.workspaceId, wanted)]);
  return { workspace_id: caller.workspaceId, name: workspace?.name ?? '', month: wanted, ...counters };
}

/** Every workspace's usage in `month` (default: the current month, UTC), oldest workspace first. The operator's. */
export async function everyWorkspaceUsage(deps: UsageDeps, month?: string): Promise<UsageReport> {
  const wanted = month ?? monthOf(deps.clock.now());
  const workspaces = await deps.workspaces.list();
  const rows: WorkspaceUsage[] = new Array(workspaces.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < workspaces.length; i = next++) {
      const workspace = workspaces[i]!;
      rows[i] = { workspace_id: workspace.id, name: workspace.name, month: wanted, ...(await deps.usage.month(workspace.id, wanted)) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, workspaces.length) }, worker));
  return { month: wanted, workspaces: rows };
}
