import type { Workspace } from './workspace';

/** Persistence of workspaces. */
export interface WorkspaceRepository {
  /** Stores a new workspace; false when one with its id exists already (it is left as it is). */
  create(workspace: Workspace): Promise<boolean>;
  findById(id: string): Promise<Workspace | null>;
  /** Every workspace, oldest first: for work that spans workspaces (the OCR sweep, a rebuild, the operator's list). */
  list(): Promise<Workspace[]>;
}

/**
 * Moves what a version before workspaces wrote (without a workspace in its keys) into a workspace: the table's
 * items, the bucket's objects. Idempotent; returns how many it moved.
 */
export interface LegacyDataAdopter {
  adopt(workspaceId: string): Promise<number>;
}
