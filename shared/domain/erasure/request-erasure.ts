import type { Clock } from '../clock';
import { conflict, notFound, validationError } from '../errors';
import type { Principal } from '../principal';
import type { WorkspaceRepository } from '../workspaces/ports';
import { BOOTSTRAP_WORKSPACE_ID, type Workspace } from '../workspaces/workspace';
import { NO_COUNTS, type Erasure } from './erasure';
import type { ErasureQueue, ErasureRepository } from './ports';

export interface RequestErasureDeps {
  clock: Clock;
  workspaces: Pick<WorkspaceRepository, 'findById' | 'setPlanAndStatus'>;
  erasures: ErasureRepository;
  erasureQueue: ErasureQueue;
}

/** What a deletion request answers (202): the workspace refuses its users from now on and is erased soon. */
export interface ErasureAccepted {
  workspace_id: string;
  status: 'deleting';
  requested_at: string;
}

/** The operator's workspace holds the deployment's operator: deleting it would leave no one to run the deployment. */
const refuseOperatorWorkspace = (workspaceId: string, caller: Principal) => {
  if (workspaceId === BOOTSTRAP_WORKSPACE_ID || (caller.operator && workspaceId === caller.workspaceId)) {
    throw conflict("The operator's own workspace cannot be deleted", { reason: 'operator_workspace', workspace_id: workspaceId });
  }
};

/**
 * Deletes the caller's workspace (its admin): `confirm` must repeat the workspace's name, so that no stray call
 * erases a tenant. The workspace is `deleting` at once (refused like a suspended one), then erased by the eraser.
 */
export async function deleteOwnWorkspace(deps: RequestErasureDeps, caller: Principal, confirm: string): Promise<ErasureAccepted> {
  refuseOperatorWorkspace(caller.workspaceId, caller);
  const workspace = await deps.workspaces.findById(caller.workspaceId);
  if (!workspace) throw notFound('workspace', caller.workspaceId);
  if (confirm !== workspace.name) {
    throw validationError("confirm must be the workspace's name", [{ field: 'confirm', reason: "must be exactly the workspace's name" }]);
  }
  return startErasure(deps, workspace, caller);
}

/** Deletes any workspace but the operator's own (the operator). An unknown id is a 404. */
export async function deleteWorkspaceAsOperator(deps: RequestErasureDeps, caller: Principal, workspaceId: string): Promise<ErasureAccepted> {
  refuseOperatorWorkspace(workspaceId, caller);
  const workspace = await deps.workspaces.findById(workspaceId);
  if (!workspace) throw notFound('workspace', workspaceId);
  return startErasure(deps, workspace, caller);
}

/**
 * Marks the workspace `deleting`, stores its deletion record and queues its erasure. Asked again (or retried
 * after a failure between the steps), it finds the record stored and queues the same erasure once more, which
 * the eraser does once.
 */
async function startErasure(deps: RequestErasureDeps, workspace: Workspace, caller: Principal): Promise<ErasureAccepted> {
  await deps.workspaces.setPlanAndStatus(workspace.id, { status: 'deleting' });
  const erasure: Erasure = {
    workspace_id: workspace.id,
    workspace_name: workspace.name,
    requested_by: { user_id: caller.userId, ...(caller.apiToken ? { token_id: caller.apiToken.id } : {}), operator: caller.operator === true },
    requested_at: deps.clock.now().toISOString(),
    status: 'erasing',
    steps_done: [],
    counts: NO_COUNTS,
  };
  const stored = await deps.erasures.start(erasure);
  await deps.erasureQueue.enqueue({ workspace_id: workspace.id });
  return { workspace_id: workspace.id, status: 'deleting', requested_at: stored.requested_at };
}
