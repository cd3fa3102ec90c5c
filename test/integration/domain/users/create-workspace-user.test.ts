import { beforeEach, describe, expect, it } from 'vitest';
import { UNLIMITED_PLAN } from '../../../../shared/domain/quotas/plans';
import { createWorkspaceUser } from '../../../../shared/domain/users/create-workspace-user';
import { listUsers } from '../../../../shared/domain/users/list-users';
import { account, accountStores, signIn, workspaceMember, type AccountStores } from './account-stores';

const member = (username: string, role: 'admin' | 'editor' | 'viewer') => ({ ...account(username), role });

/** A workspace admin adds users, over the real user, workspace and quota stores. */
describe('createWorkspaceUser', () => {
  let stores: AccountStores;

  beforeEach(async () => {
    stores = await accountStores();
  });

  it("creates a user in the admin's own workspace with the role asked for", async () => {
    // Arrange
    const admin = await workspaceMember(stores, 'admin_one');

    // Act
    const created = await createWorkspaceUser(stores, admin, member('new_editor', 'editor'));

    // Assert
    expect(created).toMatchObject({ workspace_id: admin.workspaceId, role: 'editor', display_name: null });
    expect(created).not.toHaveProperty('password_hash');
    expect(await signIn(stores, 'new_editor')).toMatchObject({ role: 'editor', workspaceId: admin.workspaceId });
  });

  it("refuses a username another workspace's member has, naming the field", async () => {
    // Arrange
    await workspaceMember(stores, 'elsewhere');
    const admin = await workspaceMember(stores, 'admin_two');

    // Act
    const attempt = createWorkspaceUser(stores, admin, { ...member('elsewhere', 'viewer'), email: 'fresh@example.com' });

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { resource: 'user', field: 'username' } });
  });

  it("refuses a member past the plan's members limit with quota_exceeded, and stores nobody", async () => {
    // Arrange
    stores = await accountStores({ plans: { plans: { small: { ...UNLIMITED_PLAN, members: 2 } }, defaultPlan: 'small' } });
    const admin = await workspaceMember(stores, 'small_admin');
    await createWorkspaceUser(stores, admin, member('second', 'viewer'));

    // Act
    const attempt = createWorkspaceUser(stores, admin, member('third', 'viewer'));

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'FORBIDDEN', details: { reason: 'quota_exceeded', quota: 'members', limit: 2, used: 2 } });
    expect(await stores.users.findByUsername('third')).toBeNull();
  });

  it('gives the count back when a create is refused as a duplicate', async () => {
    // Arrange
    stores = await accountStores({ plans: { plans: { small: { ...UNLIMITED_PLAN, members: 2 } }, defaultPlan: 'small' } });
    const admin = await workspaceMember(stores, 'counting_admin');
    await expect(createWorkspaceUser(stores, admin, member('counting_admin', 'viewer'))).rejects.toMatchObject({ code: 'DUPLICATE_RESOURCE' });

    // Act
    const created = await createWorkspaceUser(stores, admin, member('fits', 'viewer'));

    // Assert
    expect(created.username).toBe('fits');
    expect((await listUsers(stores, admin.workspaceId, { page: 1, perPage: 10 })).pagination.total).toBe(2);
  });
});
