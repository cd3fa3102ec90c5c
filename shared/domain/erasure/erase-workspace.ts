import type { Clock } from '../clock';
import { ERASURE_STEPS, type ErasureCounts, type ErasureStep } from './erasure';
import type {
  ErasureRepository,
  WorkspaceConnectionCloser,
  WorkspaceIndexEraser,
  WorkspaceObjectEraser,
  WorkspaceTableEraser,
} from './ports';

export interface EraseWorkspaceDeps {
  clock: Clock;
  erasures: ErasureRepository;
  table: WorkspaceTableEraser;
  objects: WorkspaceObjectEraser;
  index: WorkspaceIndexEraser;
  connections: WorkspaceConnectionCloser;
}

/** What the eraser did with one message. */
export type EraseOutcome = 'completed' | 'already_completed' | 'not_requested';

/** One step: what it removes. */
async function runStep(deps: EraseWorkspaceDeps, workspaceId: string, step: ErasureStep): Promise<Partial<ErasureCounts>> {
  switch (step) {
    case 'connections':
      return { connections: await deps.connections.closeAll(workspaceId) };
    case 'automation':
      return { items: await deps.table.eraseAutomation(workspaceId) };
    case 'table':
      return { items: await deps.table.eraseItems(workspaceId) };
    case 'bucket':
      return { objects: await deps.objects.erase(workspaceId) };
    case 'index':
      return { index_entries: await deps.index.erase(workspaceId) };
    case 'sweep': {
      const items = await deps.table.eraseItems(workspaceId);
      const objects = await deps.objects.erase(workspaceId);
      return { items, objects, index_entries: await deps.index.erase(workspaceId) };
    }
    case 'workspace':
      return { items: await deps.table.eraseWorkspaceRecord(workspaceId) };
  }
}

/**
 * Erases a workspace whose deletion was requested: runs the steps its record has not marked done, in order,
 * recording each as it finishes, then marks the record completed. A crash mid-step leaves the step unmarked,
 * and the message (delivered again, or queued again at a restart) runs it again from what is left. A message
 * for a workspace without a deletion record does nothing: only a request starts an erasure.
 */
export async function eraseWorkspace(deps: EraseWorkspaceDeps, workspaceId: string): Promise<EraseOutcome> {
  const erasure = await deps.erasures.find(workspaceId);
  if (!erasure) return 'not_requested';
  if (erasure.status === 'completed') return 'already_completed';
  for (const step of ERASURE_STEPS) {
    if (erasure.steps_done.includes(step)) continue;
    const removed = await runStep(deps, workspaceId, step);
    await deps.erasures.stepDone(workspaceId, step, removed);
  }
  await deps.erasures.complete(workspaceId, deps.clock.now().toISOString());
  return 'completed';
}
