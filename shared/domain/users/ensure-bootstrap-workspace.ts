import type { Clock } from '../clock';
import type { LegacyDataAdopter, WorkspaceRepository } from '../workspaces/ports';
import { BOOTSTRAP_WORKSPACE_ID, BOOTSTRAP_WORKSPACE_NAME } from '../workspaces/workspace';
import type { UserRepository } from './ports';

export interface BootstrapWorkspaceDeps {
  workspaces: WorkspaceRepository;
  users: UserRepository;
  clock: Clock;
  /** What moves data written before workspaces into the first workspace (items, objects). */
  legacyData: LegacyDataAdopter[];
}

/**
 * Creates the first workspace when missing and adopts into it every user, document, label, OCR job, staged
 * upload, counter and file written before workspaces existed. Safe to run on every start and by concurrent
 * instances: every step is idempotent. Returns how many users were adopted.
 */
export async function ensureBootstrapWorkspace(deps: BootstrapWorkspaceDeps): Promise<number> {
  await deps.workspaces.create({
    id: BOOTSTRAP_WORKSPACE_ID,
    name: BOOTSTRAP_WORKSPACE_NAME,
    created_at: deps.clock.now().toISOString(),
  });
  for (const adopter of deps.legacyData) await adopter.adopt(BOOTSTRAP_WORKSPACE_ID);
  return deps.users.adoptLegacyUsers();
}
