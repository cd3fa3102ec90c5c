import type { Clock } from '../clock';
import { ERASURE_STEPS, type Erasure, type ErasureCounts, type ErasureStep } from './erasure';
import type {
  ErasureRepository,
  ScanCheckpoint,
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

/** A table step's scan checkpoint: the positions this step saved before (a resumed erasure), saving as it goes. */
const checkpointOf = (deps: EraseWorkspaceDeps, erasure: Erasure, step: ErasureStep): ScanCheckpoint => ({
  saved: erasure.scan?.step === step ? erasure.scan.positions : {},
  save: (segment, position) => deps.erasures.saveScanPosition(erasure.workspace_id, step, segment, position),
});

/** One step: what it removes. */
async function runStep(deps: EraseWorkspaceDeps, erasure: Erasure, step: ErasureStep): Promise<Partial<ErasureCounts>> {
  const workspaceId = erasure.workspace_id;
  switch (step) {
    case 'connections':
      return { connections: await deps.connections.closeAll(workspaceId) };
    case 'automation':
      return { items: await deps.table.eraseAutomation(workspaceId) };
    case 'table':
      return { items: await deps.table.eraseItems(workspaceId, checkpointOf(deps, erasure, step)) };
    case 'bucket':
      return { objects: await deps.objects.erase(workspaceId) };
    case 'index':
      return { index_entries: await deps.index.erase(workspaceId) };
    case 'sweep': {
      const items = await deps.table.eraseItems(workspaceId, checkpointOf(deps, erasure, step));
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
 * and the message (delivered again, or queued again at a restart) runs it again from what is left; a table
 * step's scan continues from the positions it saved (see {@link ScanCheckpoint}). A message
 * for a workspace without a deletion record does nothing: only a request starts an erasure.
 */
export async function eraseWorkspace(deps: EraseWorkspaceDeps, workspaceId: string): Promise<EraseOutcome> {
  const erasure = await deps.erasures.find(workspaceId);
  if (!erasure) return 'not_requested';
  if (erasure.status === 'completed') return 'already_completed';
  for (const step of ERASURE_STEPS) {
    if (erasure.steps_done.includes(step)) continue;
    const removed = await runStep(deps, erasure, step);
    await deps.erasures.stepDone(workspaceId, step, removed);
  }
  await deps.erasures.complete(workspaceId, deps.clock.now().toISOString());
  return 'completed';
}
