import type { NewWorkspace, Workspace, WorkspaceStatus } from './workspace';

/** What may change on a workspace after its creation. */
export interface WorkspaceChanges {
  name?: string;
  plan?: string;
  status?: WorkspaceStatus;
}

/** Persistence of workspaces. */
export interface WorkspaceRepository {
  /** Stores a new workspace; false when one with its id exists already (it is left as it is). */
  create(workspace: NewWorkspace): Promise<boolean>;
  /** The workspace; one stored before plans and statuses existed reads with the default plan and `active`. */
  findById(id: string): Promise<Workspace | null>;
  /** Every workspace, oldest first: for work that spans workspaces (the OCR sweep, a rebuild, the operator's list). */
  list(): Promise<Workspace[]>;
  /**
   * Changes the given fields of an existing workspace (`updated_at` too) and returns it as stored now; null when
   * it does not exist. Fields not given keep their value, also under concurrent updates.
   */
  update(id: string, changes: WorkspaceChanges): Promise<Workspace | null>;
  /** `update` of the name alone. */
  updateName(id: string, name: string): Promise<Workspace | null>;
  /** `update` of the plan and/or the status (the operator's change, a suspension, a deletion's start). */
  setPlanAndStatus(id: string, changes: Pick<WorkspaceChanges, 'plan' | 'status'>): Promise<Workspace | null>;
}

/**
 * Whether a workspace serves now, as authentication and the workers ask it on every request and job: a read that
 * may be remembered for a few seconds (see docs/plans-and-quotas.md), so a suspension holds within them.
 */
export interface WorkspaceStatusReader {
  status(workspaceId: string): Promise<WorkspaceStatus | null>;
  /** The workspace's plan's name, remembered the same way; null when there is no such workspace. */
  plan(workspaceId: string): Promise<string | null>;
}

/**
 * Moves what a version before workspaces wrote (without a workspace in its keys) into a workspace: the table's
 * items, the bucket's objects. Idempotent; returns how many it moved.
 */
export interface LegacyDataAdopter {
  adopt(workspaceId: string): Promise<number>;
}
