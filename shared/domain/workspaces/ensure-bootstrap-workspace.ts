import type { Clock } from '../clock';
import type { UserRepository } from '../users/ports';
import type { WorkspaceRepository } from './ports';
import { BOOTSTRAP_WORKSPACE_ID, BOOTSTRAP_WORKSPACE_NAME } from './workspace';

export interface BootstrapWorkspaceDeps {
  workspaces: WorkspaceRepository;
  users: UserRepository;
  clock: Clock;
}

/**
 * Creates the first workspace when missing and adopts into it every user written before workspaces existed
 * (no `workspace_id`). Safe to run on every start and by concurrent instances: both steps are idempotent.
 * Returns how many users were adopted.
 */
export async function ensureBootstrapWorkspace(deps: BootstrapWorkspaceDeps): Promise<number> {
  await deps.workspaces.create({
    id: BOOTSTRAP_WORKSPACE_ID,
    name: BOOTSTRAP_WORKSPACE_NAME,
    created_at: deps.clock.now().toISOString(),
  });
  return deps.users.adoptLegacyUsers();
}
