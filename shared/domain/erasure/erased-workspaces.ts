import type { ErasureRepository } from './ports';

/**
 * Whether a workspace's deletion was requested, as a consumer of the table's stream asks it for each batch. A
 * deletion is final, so a workspace found erased is remembered for good; one found not erased is read again
 * next time (one read per workspace and batch), since its record is stored before the erasure deletes anything,
 * and every deletion the consumer then reads must find it.
 */
export function erasedWorkspaces(erasures: Pick<ErasureRepository, 'find'>): (workspaceId: string) => Promise<boolean> {
  const erased = new Set<string>();
  return async (workspaceId) => {
    if (erased.has(workspaceId)) return true;
    if (!(await erasures.find(workspaceId))) return false;
    erased.add(workspaceId);
    return true;
  };
}
