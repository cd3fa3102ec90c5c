import type { Principal } from '../../../../shared/domain/principal';
import { createApiToken } from '../../../../shared/domain/tokens/create-token';
import type { PlanCatalog } from '../../../../shared/domain/quotas/plans';
import { accountStores, aPrincipal } from '../users/account-stores';

/**
 * A workspace's admin, editor and viewer and an admin of another workspace (as principals: the token use cases
 * take the caller), over the real token, connection and quota stores, and a way to make tokens as they would.
 */
export async function tokenWorld(options: { plans?: PlanCatalog } = {}) {
  const stores = await accountStores(options);
  const workspaceId = crypto.randomUUID();
  const people = {
    admin: aPrincipal('admin', workspaceId),
    alice: aPrincipal('editor', workspaceId),
    bob: aPrincipal('viewer', workspaceId),
    stranger: aPrincipal('admin'),
  };
  /** A token of the caller, a second after the last one (so that the order of creation is the listing's). */
  const make = async (caller: Principal, name: string) => {
    stores.clock.advanceSeconds(1);
    return createApiToken(stores, caller, { name, scopes: ['read'] });
  };
  return { stores, workspaceId, ...people, make };
}
