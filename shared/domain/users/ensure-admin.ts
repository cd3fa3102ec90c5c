import { ensureBootstrapWorkspace } from './ensure-bootstrap-workspace';
import type { LegacyDataAdopter, WorkspaceRepository } from '../workspaces/ports';
import { BOOTSTRAP_WORKSPACE_ID } from '../workspaces/workspace';
import { createUser, type RegisterDeps } from './register';

export interface AdminAccount {
  username: string;
  email: string;
  password: string;
}

export type EnsureAdminDeps = Omit<RegisterDeps, 'registrationMode'> & { workspaces: WorkspaceRepository; legacyData: LegacyDataAdopter[] };

/**
 * Runs on every start (locally) and deploy (the cloud's bootstrap resource): creates the first workspace when
 * missing, adopts into it the users written before workspaces existed, and creates the configured admin as its
 * admin and the deployment's operator when no user has its username. An existing admin is never reset (a
 * password they changed stays); it is marked operator if it is an admin of the first workspace. Returns
 * whether the admin was created.
 */
export async function ensureAdmin(deps: EnsureAdminDeps, admin: AdminAccount): Promise<boolean> {
  await ensureBootstrapWorkspace(deps);
  const existing = await deps.users.findByUsername(admin.username);
  if (existing) {
    // A name that belongs to someone else (a member of another workspace) never makes them the operator.
    const isBootstrapAdmin = existing.workspace_id === BOOTSTRAP_WORKSPACE_ID && existing.role === 'admin';
    if (isBootstrapAdmin && !existing.operator) await deps.users.markOperator(existing.id);
    return false;
  }
  try {
    await createUser(deps, admin, 'admin', BOOTSTRAP_WORKSPACE_ID, { operator: true });
    return true;
  } catch (error) {
    // Another instance won the race to create it: the admin exists, which is all this asks for.
    if (await deps.users.findByUsername(admin.username)) return false;
    throw error;
  }
}
