import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { ensureAdmin, type AdminAccount, type EnsureAdminDeps } from '../../shared/domain/users/ensure-admin';
import { logger } from '../../shared/observability/logger';

/** The users and workspaces the admin is ensured in, and the admin's account. */
export interface BootstrapDeps {
  accounts: EnsureAdminDeps;
  admin: () => Promise<AdminAccount>;
}

/**
 * Deploy-time custom resource that creates the first admin from configuration. Create and Update ensure the
 * admin exists (never resetting a changed password); Delete keeps the user, because users outlive stacks.
 */
export const createBootstrapHandler =
  (deps: BootstrapDeps) =>
  async (event: CloudFormationCustomResourceEvent): Promise<{ PhysicalResourceId: string }> => {
    const admin = await deps.admin();
    const physicalResourceId = `admin-bootstrap-${admin.username}`;
    if (event.RequestType === 'Delete') return { PhysicalResourceId: physicalResourceId };
    const created = await ensureAdmin(deps.accounts, admin);
    logger.info(created ? 'admin created' : 'admin already exists', { username: admin.username });
    return { PhysicalResourceId: physicalResourceId };
  };
