import { conflict, notFound, validationError } from '../errors';
import { endSessions, type SessionDeps } from '../connections/sessions';
import { pageOf, type Page, type PageRequest } from '../pagination';
import type { WorkspaceRepository } from './ports';
import { overviewOf, type WorkspaceOverview, type WorkspaceOverviewDeps } from './workspace-overview';
import { BOOTSTRAP_WORKSPACE_ID, type WorkspaceStatus } from './workspace';

export interface ManageWorkspacesDeps extends WorkspaceOverviewDeps, SessionDeps {
  workspaces: Pick<WorkspaceRepository, 'findById' | 'list' | 'updateName' | 'setPlanAndStatus'>;
  /** A workspace's members (the user repository). */
  users: { list(workspaceId: string): Promise<{ id: string }[]> };
}

/** Overviews read at once for the operator's page. */
const READS_IN_FLIGHT = 8;

/** Renames the caller's workspace (`PUT /api/workspace`, its admins). */
export async function renameWorkspace(deps: ManageWorkspacesDeps, caller: { workspaceId: string }, name: string): Promise<WorkspaceOverview> {
  const workspace = await deps.workspaces.updateName(caller.workspaceId, name);
  if (!workspace) throw notFound('workspace', caller.workspaceId);
  return overviewOf(deps, workspace);
}

/** Every workspace, oldest first, a page of them with plan, status and this month's usage (the operator's). */
export async function listWorkspaces(deps: ManageWorkspacesDeps, request: PageRequest): Promise<Page<WorkspaceOverview>> {
  const all = await deps.workspaces.list();
  const slice = all.slice((request.page - 1) * request.perPage, request.page * request.perPage);
  const rows: WorkspaceOverview[] = new Array(slice.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < slice.length; i = next++) rows[i] = await overviewOf(deps, slice[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, slice.length) }, worker));
  return pageOf(rows, request, all.length);
}

/**
 * The operator's change of a workspace's plan and/or status (`PUT /api/workspaces/{id}`). A plan must be one of
 * PLANS (400 naming `plan`). Suspending ends the workspace's WebSocket sessions; its requests are refused from
 * then on (see requireServingWorkspace) and its workers defer its work; resuming restores all of it. A workspace
 * being deleted cannot be changed, and the operator's own workspace cannot be suspended (409).
 */
export async function changeWorkspace(
  deps: ManageWorkspacesDeps,
  id: string,
  changes: { plan?: string | undefined; status?: Exclude<WorkspaceStatus, 'deleting'> | undefined },
): Promise<WorkspaceOverview> {
  if (changes.plan !== undefined && !(changes.plan in deps.plans.plans)) {
    throw validationError(`There is no plan "${changes.plan}"`, [
      { field: 'plan', reason: `must be one of the plans: ${Object.keys(deps.plans.plans).join(', ')}` },
    ]);
  }
  const before = await deps.workspaces.findById(id);
  if (!before) throw notFound('workspace', id);
  if (before.status === 'deleting') throw conflict('This workspace is being deleted', { reason: 'workspace_deleting', id });
  if (changes.status === 'suspended' && id === BOOTSTRAP_WORKSPACE_ID) {
    throw conflict("The operator's own workspace cannot be suspended", { reason: 'operator_workspace', id });
  }
  const workspace = await deps.workspaces.setPlanAndStatus(id, changes);
  if (!workspace) throw notFound('workspace', id);
  if (changes.status === 'suspended' && before.status !== 'suspended') {
    for (const member of await deps.users.list(id)) await endSessions(deps, { userId: member.id }, 'workspace_suspended');
  }
  return overviewOf(deps, workspace);
}
