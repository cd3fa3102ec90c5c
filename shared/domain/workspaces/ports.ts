import type { Workspace } from './workspace';

/** Persistence of workspaces. */
export interface WorkspaceRepository {
  /** Stores a new workspace; false when one with its id exists already (it is left as it is). */
  create(workspace: Workspace): Promise<boolean>;
  findById(id: string): Promise<Workspace | null>;
}
