import { forbidden } from '../errors';
import type { Principal } from '../principal';
import type { WorkspaceChanges, WorkspaceRepository, WorkspaceStatusReader } from './ports';
import { isServing, type Workspace } from './workspace';

/**
 * How long a workspace's status read is remembered by one instance: a suspension holds on every instance within
 * this (and at once on the instance that wrote it). See docs/plans-and-quotas.md.
 */
export const WORKSPACE_STATUS_TTL_MS = 2000;

/** The refusal of every request of a suspended (or deleting) workspace's users and tokens. */
export const workspaceSuspended = () =>
  forbidden('This workspace is suspended: its data is kept, but it serves no requests until it is resumed', { reason: 'workspace_suspended' });

/**
 * Refuses the caller when their workspace does not serve (suspended or being deleted). The operator is never
 * refused: they resume workspaces. A workspace that cannot be found reads as serving (its users fail elsewhere).
 */
export async function requireServingWorkspace(status: WorkspaceStatusReader, caller: Principal): Promise<Principal> {
  if (caller.operator) return caller;
  const current = await status.status(caller.workspaceId);
  if (current && !isServing(current)) throw workspaceSuspended();
  return caller;
}

/** Whether the workspace's work (syncs, OCR, webhook deliveries) may run now. */
export async function workspaceServes(status: WorkspaceStatusReader, workspaceId: string): Promise<boolean> {
  const current = await status.status(workspaceId);
  return current === null || isServing(current);
}

/**
 * The workspace repository with its statuses remembered for `ttlMs` per instance: the status reader every
 * request asks, and the repository whose writes forget what this instance remembered (so the instance that
 * suspends a workspace refuses its next request at once).
 */
export function rememberedWorkspaceStatus(
  repository: WorkspaceRepository,
  ttlMs: number = WORKSPACE_STATUS_TTL_MS,
  now: () => number = Date.now,
): { reader: WorkspaceStatusReader; repository: WorkspaceRepository } {
  const remembered = new Map<string, { workspace: Workspace | null; until: number }>();
  const read = async (workspaceId: string): Promise<Workspace | null> => {
    const hit = remembered.get(workspaceId);
    if (hit && hit.until > now()) return hit.workspace;
    const workspace = await repository.findById(workspaceId);
    // Bounded: a busy instance serving many workspaces keeps the latest few thousand.
    if (remembered.size >= 10_000) remembered.clear();
    remembered.set(workspaceId, { workspace, until: now() + ttlMs });
    return workspace;
  };
  const reader: WorkspaceStatusReader = {
    status: async (workspaceId) => (await read(workspaceId))?.status ?? null,
    plan: async (workspaceId) => (await read(workspaceId))?.plan ?? null,
  };
  const forgetting = async <T>(id: string, write: Promise<T>): Promise<T> => {
    try {
      return await write;
    } finally {
      remembered.delete(id);
    }
  };
  return {
    reader,
    repository: {
      create: (workspace) => repository.create(workspace),
      findById: (id) => repository.findById(id),
      list: () => repository.list(),
      update: (id, changes: WorkspaceChanges) => forgetting(id, repository.update(id, changes)),
      updateName: (id, name) => forgetting(id, repository.updateName(id, name)),
      setPlanAndStatus: (id, changes) => forgetting(id, repository.setPlanAndStatus(id, changes)),
    },
  };
}
