import { DynamoRevokedTokenStore } from '../../adapters/aws/dynamodb/revoked-token-store';
import { DynamoSettingsRepository } from '../../adapters/aws/dynamodb/settings-repository';
import { DynamoUserRepository } from '../../adapters/aws/dynamodb/user-repository';
import { DynamoWorkspaceRepository } from '../../adapters/aws/dynamodb/workspace-repository';
import type { HotReadStores } from '../../adapters/local/remembered-reads';
import type { Clock } from '../../domain/clock';
import type { PlanCatalog } from '../../domain/quotas/plans';
import { rememberedWorkspaceStatus } from '../../domain/workspaces/workspace-status';
import type { WorkspaceRepository, WorkspaceStatusReader } from '../../domain/workspaces/ports';
import { planCatalog, type CommonEnv } from './config';
import type { Table } from './table';

/**
 * The stores every authenticated request reads: users, their settings, revoked tokens. `remember` wraps them
 * (the local runtime, the only writer of its table, remembers what it read: `rememberHotReads`).
 */
export function accountStores(table: Table, remember?: (stores: HotReadStores) => HotReadStores): HotReadStores {
  const stores = {
    users: new DynamoUserRepository(table.db, table.name),
    settings: new DynamoSettingsRepository(table.db, table.name),
    revokedTokens: new DynamoRevokedTokenStore(table.db, table.name),
  };
  return remember?.(stores) ?? stores;
}

/** The workspaces, their plans, and whether each serves (read on every authenticated request and by the workers before each job). */
export interface WorkspaceDirectory {
  /** The plans (PLANS, DEFAULT_PLAN) and so each workspace's quotas. */
  plans: PlanCatalog;
  workspaces: WorkspaceRepository;
  /** Whether a workspace serves, remembered for a few seconds (WORKSPACE_STATUS_TTL_MS). */
  workspaceStatus: WorkspaceStatusReader;
}

/** The workspaces over the table, with their plans from the environment (a wrong plan stops the start). */
export function workspaceDirectory(table: Table, env: Pick<CommonEnv, 'PLANS' | 'DEFAULT_PLAN'>, clock: Clock): WorkspaceDirectory {
  const plans = planCatalog(env);
  const { repository, reader } = rememberedWorkspaceStatus(new DynamoWorkspaceRepository(table.db, table.name, plans.defaultPlan, () => clock.now()));
  return { plans, workspaces: repository, workspaceStatus: reader };
}
